"""The auction in every variant of the Pitch family: bids from the minimum to the top, the top bid ending the
auction at once, the stuck dealer's minimum, and the dealer's steal, said in words on the panel."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.table import services

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def ten_point(league):
    return services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules(variant="10-point"), code="ten")


def panel(client, game, bids: str = "") -> str:
    url = reverse("scores:auction", args=[game.league.slug, game.pk])
    return client.get(url, {"bids": bids} if bids else {}, headers=HTMX).content.decode()


def offered(html: str) -> list[str]:
    return [part.split("</a>", 1)[0].rsplit(">", 1)[1] for part in html.split('class="btn btn-outline-success tap"')[1:]]


def test_the_bids_run_from_the_variants_minimum_to_its_top_and_the_top_is_said_to_end_it(scorer, ten_point):
    html = panel(scorer, ten_point)

    assert "Bob bids:" in html
    assert offered(html) == ["Pass", *map(str, range(4, 11))]
    assert "A bid of 10 ends the auction at once." in html


def test_the_top_bid_ends_the_auction_however_many_have_not_bid(scorer, ten_point):
    html = panel(scorer, ten_point, "4,10")

    assert "Bob is" not in html and "Cat is the pitcher with a bid of 10." in html
    assert "Dan bids" not in html and offered(html) == []
    assert 'data-auction-result="4,10" data-pitcher="Cat" data-bid="10"' in html
    # Without JavaScript the page goes back to the hand with it.
    url = reverse("scores:auction", args=[ten_point.league.slug, ten_point.pk])
    assert "auction=4%2C10" in scorer.get(url, {"bids": "4,10"})["Location"]


def test_the_stuck_dealer_bids_at_least_the_minimum_when_it_is_above_2(scorer, ten_point):
    html = panel(scorer, ten_point, "p,p,p")

    assert "Ann bids:" in html
    assert "Everyone passed: the dealer must bid at least 4." in html
    assert offered(html) == list(map(str, range(4, 11)))
    assert "ends the auction at once" not in html  # The dealer bids last: the auction ends with any bid.


def test_the_dealer_may_steal_any_bid_below_the_top(scorer, ten_point):
    html = panel(scorer, ten_point, "p,6,p")

    assert "The dealer may steal the bid with 6." in html
    assert offered(html) == ["Pass", *map(str, range(6, 11))]


def test_a_stuck_dealer_in_the_4_point_game_still_bids_2(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat"], rules=rules.Rules(), code="four")

    html = panel(scorer, game, "p,p")

    assert "Everyone passed: the dealer must bid at least 2." in html and offered(html) == ["2", "3", "4"]
    assert "A bid of 4 ends the auction at once." in panel(scorer, game)
