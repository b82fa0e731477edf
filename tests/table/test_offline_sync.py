"""The endpoint a phone's offline queue syncs to: what it stored, in JSON; a resend stores nothing twice;
a hand another phone took, or one the rules refuse, is answered as such and changes nothing."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.engine.names import MAX_LENGTH
from scores.leagues.models import Role
from scores.table import services
from scores.table.models import Hand
from tests.conftest import hand

pytestmark = pytest.mark.django_db


def sync_url(game) -> str:
    return reverse("scores:hand_sync", args=[game.league.slug, game.pk])


def post(client, game, *hands: dict):
    return client.post(sync_url(game), json.dumps({"hands": list(hands)}), content_type="application/json")


def taps(number: int, key: uuid.UUID | None = None, **fields) -> dict:
    """A queued hand as offline.js sends it: the form's pitcher and bid, the points as an object (a point's keyword
    given here sets it; "-" is null), its number and key."""
    points = {"high": "Ann", "low": "Bob", "jack": None, "game": "Ann"}
    points |= {key: None if value == "-" else value for key, value in fields.items() if key in points}
    hand = {"pitcher": "Ann", "bid": "2"} | {key: value for key, value in fields.items() if key not in points}
    return hand | {"points": points, "number": number, "key": str(key or uuid.uuid4())}


def test_it_stores_the_hand_and_answers_the_servers_totals_and_a_resend_stores_nothing_twice(scorer, four_player_game):
    key = uuid.uuid4()
    first = post(scorer, four_player_game, taps(1, key))
    assert first.status_code == 200
    stored = {"status": "stored", "number": 1, "totals": {"Ann": 2, "Bob": 1, "Cat": 0, "Dan": 0}, "winner": None}
    assert first.json() == {"results": [stored]}
    again = post(scorer, four_player_game, taps(1, key))
    assert again.json() == first.json()
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("number", [2, 1], ids=["as the next hand", "under the same number"])
def test_a_key_already_used_for_another_hand_is_refused_with_a_409_and_stores_nothing(scorer, four_player_game, number):
    key = uuid.uuid4()
    post(scorer, four_player_game, taps(1, key))
    answer = post(scorer, four_player_game, taps(number, key, pitcher="Bob", high="Bob"))
    assert answer.status_code == 409
    [result] = answer.json()["results"]
    assert result["status"] == "refused"
    assert result["messages"] == [
        "Hand 1 was already saved from the same form, so this one was not stored: "
        "edit hand 1 to change it, or save this one as the next hand."
    ]
    assert list(Hand.objects.values_list("number", "pitcher__player__name")) == [(1, "Ann")]


def test_several_hands_are_stored_in_order_and_it_stops_at_the_first_it_cannot_take(scorer, four_player_game):
    answer = post(scorer, four_player_game, taps(1), taps(2, pitcher="Bob", high="Bob", low="Bob"), taps(2), taps(3))
    statuses = [result["status"] for result in answer.json()["results"]]
    assert statuses == ["stored", "stored", "conflict"]
    assert list(Hand.objects.order_by("number").values_list("number", "pitcher__player__name")) == [(1, "Ann"), (2, "Bob")]


def test_it_answers_the_winner(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=2))
    answer = post(scorer, game, taps(1, pitcher="Ann", bid="2", high="Ann", low="Ann")).json()["results"][0]
    assert answer["winner"] == "Ann" and answer["totals"] == {"Ann": 3, "Bob": 0}


def test_a_number_another_phone_took_is_a_conflict_and_changes_nothing(scorer, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Cat", 2, "Cat", "Cat"))
    answer = post(scorer, four_player_game, taps(1))
    assert answer.json() == {"results": [{"status": "conflict", "messages": ["Hand 1 was already recorded."]}]}
    assert list(Hand.objects.values_list("pitcher__player__name", flat=True)) == ["Cat"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (taps(1, pitcher="Zed"), "Select a valid choice."),
        (taps(1, bid="9"), "Select a valid choice."),
        (taps(2), "the next hand is hand 1, not 2"),
        ({k: v for k, v in taps(1).items() if k != "key"}, "The page sent a hand it could not read"),
        (taps(1) | {"number": "x"}, "The page sent a hand it could not read"),
    ],
)
def test_a_hand_the_server_cannot_take_is_refused_with_the_reason_and_nothing_stored(scorer, four_player_game, data, message):
    answer = post(scorer, four_player_game, data)
    [result] = answer.json()["results"]
    assert result["status"] == "refused"
    assert any(message in text for text in result["messages"])
    assert Hand.objects.count() == 0


def test_a_finished_game_takes_no_more_hands(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=2))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    answer = post(scorer, game, taps(2))
    assert answer.json()["results"] == [{"status": "refused", "messages": ["The game is over: no more hands can be entered."]}]
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("body", [b"", b"{", b'{"hands": {}}', b'{"hands": []}', b'{"hands": [1]}', b"[]"])
def test_a_body_that_is_not_a_list_of_hands_is_refused_and_changes_nothing(scorer, four_player_game, body):
    answer = scorer.post(sync_url(four_player_game), body, content_type="application/json")
    assert answer.status_code == 400
    assert "could not read" in answer.json()["results"][0]["messages"][0]
    assert Hand.objects.count() == 0


def test_only_scorers_may_sync_and_only_by_post(client, make_user, league, four_player_game, scorer):
    assert scorer.get(sync_url(four_player_game)).status_code == 405
    make_user("vic", league, Role.VIEWER)
    client.logout()
    client.login(username="vic", password="a-long-test-password")
    assert post(client, four_player_game, taps(1)).status_code == 404
    make_user("stranger", None)
    client.logout()
    client.login(username="stranger", password="a-long-test-password")
    assert post(client, four_player_game, taps(1)).status_code == 404
    client.logout()
    assert post(client, four_player_game, taps(1)).url.startswith("/accounts/login/")
    assert Hand.objects.count() == 0


def test_a_body_nested_deeper_than_the_parser_goes_is_refused_with_a_reason(scorer, four_player_game):
    body = '{"hands": ' + "[" * 10_000 + "]" * 10_000 + "}"  # About 20 KB.
    answer = scorer.post(sync_url(four_player_game), body, content_type="application/json")
    assert answer.status_code == 400
    assert "could not read" in answer.json()["results"][0]["messages"][0]
    assert Hand.objects.count() == 0


@pytest.mark.parametrize(
    "value",
    [{"a": [1, 2]}, ["Ann"], None, True, "A" * (MAX_LENGTH + 1), 10**200],
    ids=["object", "list", "null", "boolean", "long text", "long number"],
)
def test_a_hand_value_that_is_not_a_short_text_or_number_is_refused_before_any_hand_is_stored(scorer, four_player_game, value):
    answer = post(scorer, four_player_game, taps(1), taps(2, pitcher=value))
    assert answer.status_code == 400
    assert "could not read" in answer.json()["results"][0]["messages"][0]
    assert Hand.objects.count() == 0


def test_a_body_longer_than_the_limit_is_refused_from_its_length_with_a_reason(scorer, four_player_game):
    hands = [taps(number, pitcher="Ann" + " " * 3000) for number in range(1, 101)]  # 100 hands, each far longer than a real one.
    answer = post(scorer, four_player_game, *hands)
    assert answer.status_code == 413
    assert "too large" in answer.json()["results"][0]["messages"][0]
    assert Hand.objects.count() == 0


def test_a_length_past_the_limit_is_refused_before_the_body_is_read(scorer, four_player_game):
    # The body is short: reading the 3 MB the request claims would fail, so a 413 means it was never read.
    answer = scorer.post(sync_url(four_player_game), b"{}", content_type="application/json", CONTENT_LENGTH=str(3 * 1024 * 1024))
    assert answer.status_code == 413 and answer["Content-Type"] == "application/json"
    assert "too large" in answer.json()["results"][0]["messages"][0]
