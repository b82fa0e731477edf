"""An id or hand number in an address that no row can have is a 404 on every page that takes one, for GET and POST."""

from __future__ import annotations

import re

import pytest

from scores.urls import urlpatterns

ROUTES = [str(pattern.pattern) for pattern in urlpatterns if "<id:" in str(pattern.pattern)]


def test_every_numbered_address_takes_its_numbers_through_the_id_converter():
    # Had a pattern kept <int:…>, a number past what the database holds would reach a view unchecked.
    assert ROUTES
    assert not [str(pattern.pattern) for pattern in urlpatterns if "<int:" in str(pattern.pattern)]


@pytest.mark.parametrize("number", ["0", str(2**63), "9" * 30, "-1", "01"])
@pytest.mark.parametrize("route", ROUTES)
def test_a_number_no_row_can_have_is_a_404(owner_client, league, route, number):
    address = "/" + re.sub(r"<slug:\w+>", league.slug, route)
    address = re.sub(r"<id:\w+>", number, address)
    for method in (owner_client.get, owner_client.post):
        assert method(address).status_code == 404, f"{method.__name__.upper()} {address}"
