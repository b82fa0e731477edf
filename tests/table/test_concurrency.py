"""Nothing lost, nothing doubled: real threads, each with its own database connection."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

import pytest
from django.db import connection

from scores.engine import rules
from scores.table import selectors, services
from scores.table.models import Game, Hand
from tests.conftest import hand

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(tasks: list[Callable[[], object]]) -> list[object]:
    """Start every task at the same moment on its own thread; return each result or exception."""
    barrier = threading.Barrier(len(tasks))
    results: list[object] = [None] * len(tasks)

    def run(i: int, task: Callable[[], object]) -> None:
        barrier.wait()
        try:
            results[i] = task()
        except Exception as error:  # the test inspects what each thread got
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, t)) for i, t in enumerate(tasks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def assert_consistent(game: Game, acknowledged: int) -> None:
    numbers = list(Hand.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, acknowledged + 1))
    state = selectors.load_game(game)
    result = state.replay()
    for stored, scored in zip(state.hands, result.hands, strict=True):
        assert {s.side.name: s.total for s in stored.scores.select_related("side")} == dict(scored.totals)


def test_many_phones_recording_in_different_games_lose_nothing(league):
    games = [services.start_game(league=league, seats=["Ann", "Bob", "Cat"], code=f"g{i}", rules=rules.Rules()) for i in range(4)]

    def phone(game: Game) -> Callable[[], int]:
        def record() -> int:
            for _ in range(5):
                services.record_hand(game=game, hand=hand("Ann", 1, "Bob", "Cat"), idempotency_key=uuid.uuid4())
            return 5

        return record

    results = run_together([phone(game) for game in games])
    assert results == [5, 5, 5, 5]
    for game in games:
        assert_consistent(game, 5)


def test_two_phones_saving_the_same_hand_store_it_once(four_player_game):
    tasks = [
        lambda p=pitcher: services.record_hand(game=four_player_game, hand=hand(p, 2, p, p), number=1, idempotency_key=uuid.uuid4())
        for pitcher in ["Ann", "Bob"]
    ]
    results = run_together(tasks)
    stored = [r for r in results if isinstance(r, Hand)]
    refused = [r for r in results if isinstance(r, services.HandAlreadyRecorded)]
    assert len(stored) == 1 and len(refused) == 1, results
    assert_consistent(four_player_game, 1)


def test_a_double_submission_with_one_key_stores_one_hand(four_player_game):
    key = uuid.uuid4()
    results = run_together(
        [lambda: services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"), number=1, idempotency_key=key)] * 3
    )
    assert all(isinstance(r, Hand) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert_consistent(four_player_game, 1)


def test_an_edit_racing_a_new_hand_keeps_both(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 1, "Bob", "Cat"))
    results = run_together(
        [
            lambda: services.edit_hand(game=four_player_game, number=1, hand=hand("Ann", 2, "Ann", "Ann")),
            lambda: services.record_hand(game=four_player_game, hand=hand("Bob", 1, "Bob", "Cat"), number=2),
        ]
    )
    assert not any(isinstance(r, Exception) for r in results), results
    assert_consistent(four_player_game, 2)
    assert Hand.objects.get(game=four_player_game, number=1).bid == 2
    assert selectors.load_game(four_player_game).replay().totals["Ann"] == 2
