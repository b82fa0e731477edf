"""Nothing lost under concurrent requests: real threads, each a phone with its own session, through the views.

``tests/table/test_concurrency.py`` races the services; these race whole requests
(middleware, session, form, service, response), each thread on its own database
connection, on SQLite in WAL mode and on PostgreSQL alike.
"""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scores.engine import rules
from scores.leagues.models import Role
from scores.table import selectors, services
from scores.table.models import Game, Hand
from tests.table.test_concurrency import assert_consistent, run_together

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
ALREADY = "was already recorded"


@pytest.fixture
def phones(make_user, league):
    """Logged-in clients of one scorer, a session each, as on several phones."""
    user = make_user("sam", league, Role.SCORER)

    def make(count: int) -> list[Client]:
        clients = [Client() for _ in range(count)]
        for client in clients:
            client.force_login(user)
        return clients

    return make


def taps(pitcher: str, bid: int, high: str, low: str, *, number: int, key: uuid.UUID | None = None) -> dict:
    key = key or uuid.uuid4()
    return {"pitcher": pitcher, "bid": bid, "high": high, "low": low, "jack": "-", "game": "-", "number": number, "key": str(key)}


def save(client: Client, game: Game, data: dict):
    return client.post(reverse("scores:hand_create", args=[game.league.slug, game.pk]), data, **HTMX)


def acknowledged(response) -> bool:
    """The phone was told its hand is saved: the fresh scoreboard, with no notice that it was refused."""
    return response.status_code == 200 and ALREADY not in response.content.decode()


def assert_no_failures(results: list) -> None:
    for result in results:
        assert not isinstance(result, Exception), result
        for response in result if isinstance(result, list) else [result]:
            assert response.status_code < 500, response.content[:500]
            assert b"database is locked" not in response.content


def test_many_phones_recording_in_different_games_lose_nothing(league, phones):
    games = [services.start_game(league=league, seats=["Ann", "Bob", "Cat"], code=f"table-{i}", rules=rules.Rules()) for i in range(6)]

    def phone(client: Client, game: Game):
        return lambda: [save(client, game, taps("Ann", 1, "Bob", "Cat", number=n)) for n in range(1, 6)]

    results = run_together([phone(client, game) for client, game in zip(phones(len(games)), games, strict=True)])
    assert_no_failures(results)
    for game, responses in zip(games, results, strict=True):
        assert all(acknowledged(r) for r in responses)
        assert_consistent(game, 5)
        assert selectors.load_game(game).replay().totals == {"Ann": -5, "Bob": 5, "Cat": 5}


def test_two_phones_saving_the_same_hand_store_one_and_tell_the_other(four_player_game, phones):
    first, second = phones(2)
    results = run_together(
        [
            lambda: save(first, four_player_game, taps("Ann", 2, "Ann", "Ann", number=1)),
            lambda: save(second, four_player_game, taps("Bob", 2, "Bob", "Bob", number=1)),
        ]
    )
    assert_no_failures(results)
    saved = [r for r in results if acknowledged(r)]
    refused = [r for r in results if ALREADY in r.content.decode()]
    assert len(saved) == 1 and len(refused) == 1
    assert_consistent(four_player_game, 1)
    winner = "Ann" if results[0] is saved[0] else "Bob"
    assert Hand.objects.get(game=four_player_game).pitcher.player.name == winner


def test_a_double_submission_with_one_key_stores_one_hand_and_acknowledges_each(four_player_game, phones):
    key = uuid.uuid4()
    clients = phones(3)
    results = run_together([lambda c=c: save(c, four_player_game, taps("Ann", 2, "Ann", "Ann", number=1, key=key)) for c in clients])
    assert_no_failures(results)
    assert all(acknowledged(r) for r in results)
    assert_consistent(four_player_game, 1)
    assert Hand.objects.get(game=four_player_game).idempotency_key == key


def test_an_edit_racing_a_new_hand_keeps_both(four_player_game, phones):
    editor, scorer = phones(2)
    assert acknowledged(save(scorer, four_player_game, taps("Ann", 1, "Bob", "Cat", number=1)))
    edit_url = reverse("scores:hand_edit", args=[four_player_game.league.slug, four_player_game.pk, 1])
    # The version the edit page was shown at: the edit is refused if the new hand is stored first.
    edit = {"pitcher": "Ann", "bid": 2, "high": "Ann", "low": "Ann", "jack": "-", "game": "-", "version": Game.objects.get().version}
    results = run_together(
        [
            lambda: editor.post(edit_url, edit, follow=True),
            lambda: save(scorer, four_player_game, taps("Bob", 1, "Bob", "Cat", number=2)),
        ]
    )
    assert_no_failures(results)
    assert results[0].redirect_chain[-1][0] == four_player_game.get_absolute_url()  # Back to the game either way.
    assert acknowledged(results[1])
    assert_consistent(four_player_game, 2)
    if "changed on another phone meanwhile" in results[0].content.decode():
        assert Hand.objects.get(game=four_player_game, number=1).bid == 1
        assert selectors.load_game(four_player_game).replay().totals == {"Ann": -1, "Bob": 2, "Cat": 2, "Dan": 0}
    else:
        assert Hand.objects.get(game=four_player_game, number=1).bid == 2
        assert selectors.load_game(four_player_game).replay().totals == {"Ann": 2, "Bob": 1, "Cat": 1, "Dan": 0}


def test_rounds_of_four_phones_racing_for_each_hand_leave_no_gap_or_double(four_player_game, phones):
    clients = phones(4)
    names = ["Ann", "Bob", "Cat", "Dan"]
    saved = 0
    for number in range(1, 5):
        results = run_together(
            [lambda c=c, p=p, n=number: save(c, four_player_game, taps(p, 1, p, p, number=n)) for c, p in zip(clients, names, strict=True)]
        )
        assert_no_failures(results)
        assert sum(acknowledged(r) for r in results) == 1
        saved += 1
    assert_consistent(four_player_game, saved)
