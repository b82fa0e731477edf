"""The import queue under trouble: two workers importing one file at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from scores import services, tasks
from scores.models import Game, ImportJob
from scores.services import imports
from tests.history_docs import SPEC_HAND, document, dumps, game, hand

postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="on SQLite one import's transaction waits for the other's")
# A finished game (target 1) as well: its ratings are worked out last, inside the import's transaction.
FILE = dumps(
    document(game("kitchen", hands=[SPEC_HAND]), game("garage", hands=[hand("Ann", 2, "Ann", "Ann", "Ann", "Ann")], rules={"target": 1}))
)


def wait_for(what: Callable[[], object], *, seconds: float = 60) -> None:
    """Wait until ``what()`` holds, as the database or the file system shows it; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, f"still waiting for {what.__doc__ or what}"
        time.sleep(0.05)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_workers_importing_one_file_at_once_store_it_once_and_the_second_finds_it_there(owner, league, monkeypatch):
    """The second used to fail with "the import stopped on an error in the app" (UniqueViolation on the game's code)."""
    services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], code="earlier")  # The players are known.
    jobs = [ImportJob.objects.create(league=league, user=owner, filename="h.json", source=FILE) for _ in range(2)]
    first_inside, go, inside = threading.Event(), threading.Event(), []
    players_named = imports.players_named

    def held_first(league, names):
        """The first import waits inside its transaction until the second has come as far as it can."""
        inside.append(names)
        if len(inside) == 1:
            first_inside.set()
            go.wait(timeout=60)
        return players_named(league, names)

    monkeypatch.setattr(imports, "players_named", held_first)
    errors: list[BaseException] = []

    def worker(job: ImportJob) -> None:
        try:
            tasks.import_history.call(job.pk)
        except Exception as error:  # The test looks at what each got.
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(job,)) for job in jobs]
    threads[0].start()
    assert first_inside.wait(timeout=60)
    threads[1].start()

    def second_came_as_far_as_it_can() -> bool:
        """In the first's place inside the transaction, or waiting for a lock the first holds."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            return len(inside) == 2 or cursor.fetchone()[0] > 0

    wait_for(second_came_as_far_as_it_can)
    go.set()
    for thread in threads:
        thread.join(timeout=60)

    assert errors == []
    done = [ImportJob.objects.get(pk=job.pk) for job in jobs]
    assert [job.status for job in done] == [ImportJob.Status.DONE] * 2, [job.problems for job in done]
    assert sorted((job.imported, job.skipped) for job in done) == [([], ["kitchen", "garage"]), (["kitchen", "garage"], [])]
    assert Game.objects.count() == 3
