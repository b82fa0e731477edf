"""A session cookie that cannot be one of ours is no session: never a query with it, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# A NUL byte in a long enough key reached PostgreSQL, which refuses NUL in text: a 500 for whoever sent it.
MALFORMED = ["abcdefgh\x00ijklmnop", "abc\x00def", "x" * 41, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "abcdefgh'; --"]


@pytest.mark.parametrize("key", MALFORMED)
def test_a_malformed_session_cookie_is_no_session(client, key):
    client.raise_request_exception = False
    response = client.get(reverse("scores:home"), HTTP_COOKIE=f"sessionid={key}")
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated


@pytest.mark.parametrize("key", MALFORMED[:1])
def test_logging_in_with_a_malformed_session_cookie_starts_a_new_session(client, make_user, key):
    make_user("olive")
    client.raise_request_exception = False
    response = client.post(reverse("login"), {"username": "olive", "password": PASSWORD}, HTTP_COOKIE=f"sessionid={key}")
    assert response.status_code == 302
    new_key = response.cookies["sessionid"].value
    assert new_key != key and len(new_key) == 32
    assert client.get(reverse("scores:home")).context["user"].username == "olive"


def test_a_real_session_still_works(client, make_user):
    client.force_login(make_user("olive"))
    assert client.get(reverse("scores:home")).context["user"].username == "olive"
