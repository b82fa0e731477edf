"""Entering the auction seat by seat from the dealer's left, by the rules of bidding."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from scores.table.models import Hand

pytestmark = pytest.mark.django_db


def auction_url(game, bids: str | None = None) -> str:
    url = reverse("scores:auction", args=[game.league.slug, game.pk])
    return f"{url}?bids={bids}" if bids is not None else url


def test_bidding_starts_at_the_dealers_left(scorer, four_player_game):
    html = scorer.get(auction_url(four_player_game)).content.decode()
    assert "Ann deals" in html and "Bob bids:" in html
    for label in ("Pass", "1", "2", "3", "4"):
        assert f">{label}</a>" in html


def test_each_bid_must_beat_the_last_and_the_stuck_dealer_must_bid_2(scorer, four_player_game):
    html = scorer.get(auction_url(four_player_game, "p,2")).content.decode()
    assert "Dan bids:" in html and ">Pass</a>" in html and ">2</a>" not in html and ">3</a>" in html
    html = scorer.get(auction_url(four_player_game, "p,p,p")).content.decode()
    assert "Ann bids:" in html and ">Pass</a>" not in html and ">1</a>" not in html and ">2</a>" in html


def test_a_finished_auction_fills_in_pitcher_and_bid(scorer, four_player_game):
    response = scorer.get(auction_url(four_player_game, "p,2,p,2"))
    assert response.status_code == 302
    html = scorer.get(response["Location"]).content.decode()
    assert "Auction: Bob pass, Cat 2, Dan pass, Ann 2" in html
    assert 'name="pitcher" id="id_pitcher_0" value="Ann" checked' in html
    assert 'name="bid" id="id_bid_1" value="2" checked' in html
    assert 'name="auction" value="p,2,p,2"' in html


def test_a_bid_of_4_ends_the_auction(scorer, four_player_game):
    response = scorer.get(auction_url(four_player_game, "p,4"))
    assert response.status_code == 302 and "auction=p%2C4" in response["Location"]


@pytest.mark.parametrize("bids", ["2,1", "p,p,p,p", "x", "4,p", "1,2,3,4,1"])
def test_an_auction_against_the_rules_says_so(scorer, four_player_game, bids):
    response = scorer.get(auction_url(four_player_game, bids))
    assert response.status_code == 200
    assert "That auction does not follow the rules of bidding; start again." in response.content.decode()


def test_a_bad_auction_in_the_game_url_is_reported_not_used(scorer, four_player_game):
    html = scorer.get(four_player_game.get_absolute_url() + "?auction=1,1").content.decode()
    assert "That auction does not follow the rules of bidding; enter it again." in html
    assert 'value="1,1"' not in html


def test_a_hand_saved_with_its_auction_stores_the_auction(scorer, four_player_game):
    data = {"pitcher": "Ann", "bid": 2, "high": "Ann", "low": "Ann", "jack": "-", "game": "-"}
    data |= {"number": 1, "key": str(uuid.uuid4()), "auction": "p,2,p,2"}
    scorer.post(reverse("scores:hand_create", args=[four_player_game.league.slug, four_player_game.pk]), data)
    assert Hand.objects.get(game=four_player_game).auction == [[1, None], [2, 2], [3, None], [0, 2]]
