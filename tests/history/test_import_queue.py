"""The import queue under trouble: a worker killed in the middle of an import, two workers importing one file at
once, and one owner's uploads beside everyone else's."""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scores.engine import rules
from scores.history import services as imports
from scores.history import tasks
from scores.history.models import ImportJob
from scores.leagues.models import League, Membership, Role
from scores.table import services
from scores.table.models import Game
from tests.history.test_import_jobs import DATABASE_BACKEND, upload
from tests.history_docs import SPEC_HAND, document, dumps, game, hand

ROOT = Path(__file__).resolve().parents[2]
postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="on SQLite one import's transaction waits for the other's")
# A finished game (target 1) as well: its ratings are worked out last, inside the import's transaction.
FILE = dumps(
    document(game("kitchen", hands=[SPEC_HAND]), game("garage", hands=[hand("Ann", 2, "Ann", "Ann", "Ann", "Ann")], rules={"target": 1}))
)
# A real worker (manage.py db_worker) held inside the import's transaction, every row inserted, until it is killed:
# what a kill -9 in the middle of "Storing the games" finds.
HELD_WORKER = """
import os, pathlib, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pitchleague.settings")
django.setup()
from django.core.management import execute_from_command_line
from scores.history import services as imports

def held(**kwargs):
    pathlib.Path(sys.argv[1]).touch()
    time.sleep(600)

imports.rate_again = held
execute_from_command_line(["manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.1"])
"""


def wait_for(what: Callable[[], object], *, seconds: float = 60) -> None:
    """Wait until ``what()`` holds, as the database or the file system shows it; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, f"still waiting for {what.__doc__ or what}"
        time.sleep(0.05)


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def _worker(log: Path, *held_at: Path) -> subprocess.Popen:
    """A worker process on the test database, an import silent for a second taken for dead."""
    env = {**os.environ, "DATABASE_URL": _database_url(), "IMPORT_STALE_AFTER": "1"}
    args = [sys.executable, "-c", HELD_WORKER, *map(str, held_at)] if held_at else [sys.executable, "manage.py", "db_worker"]
    if not held_at:
        args += ["--no-reload", "--no-startup-delay", "--interval", "0.1"]
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT)


def _kill(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=30)


@pytest.mark.django_db(transaction=True)  # The workers are other processes: they see only what is committed.
def test_an_import_whose_worker_is_killed_is_started_again_by_the_next_worker(client, owner, league, settings, tmp_path):
    settings.TASKS = DATABASE_BACKEND
    settings.IMPORT_STALE_AFTER = 1  # As the workers have it.
    client.force_login(owner)
    upload(client, league, FILE)
    job = ImportJob.objects.get()
    held, log = tmp_path / "held", tmp_path / "workers.log"

    first = _worker(log, held)
    try:
        wait_for(lambda: held.exists() or first.poll() is not None)
        assert first.poll() is None, log.read_text()
        job.refresh_from_db()
        assert job.status == ImportJob.Status.STORING
    finally:
        _kill(first)  # SIGKILL: no chance to say anything.

    job.refresh_from_db()
    assert job.status == ImportJob.Status.STORING and bytes(job.source) == FILE  # As the killed worker left it.
    assert not Game.objects.exists()  # Its transaction was rolled back: nothing half-stored.

    second = _worker(log)
    try:
        # Until the second worker has written its task's result too (after the job is over): killed before that, it
        # would leave its own task running, which is not what this test is about.
        wait_for(
            lambda: DBTaskResult.objects.filter(task_path="scores.history.tasks.import_history", status="SUCCESSFUL").exists(), seconds=90
        )
    finally:
        _kill(second)

    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.imported == ["kitchen", "garage"], log.read_text()
    assert job.restarts == 1 and bytes(job.source) == b""
    assert Game.objects.count() == 2
    page = client.get(job.get_absolute_url()).text
    assert "Imported 2 games." in page
    assert "The worker running this import stopped before it finished, so it was started again." in page
    # The killed worker's task is failed, not left running for ever in the task table.
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    assert DBTaskResult.objects.filter(status="FAILED", task_path="scores.history.tasks.import_history").count() == 1


def _running_job(league, owner, *, restarts: int, silent_for: float) -> tuple[ImportJob, str]:
    """A job whose task a worker took, which has said nothing for ``silent_for`` seconds."""
    job = ImportJob.objects.create(league=league, user=owner, filename="h.json", source=FILE, restarts=restarts)
    task_id = tasks.import_history.enqueue(job.pk).id
    DBTaskResult.objects.filter(pk=task_id).update(status="RUNNING", started_at=timezone.now() - datetime.timedelta(seconds=silent_for))
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportJob.Status.STORING, updated_at=timezone.now() - datetime.timedelta(seconds=silent_for)
    )
    return job, task_id


@pytest.mark.django_db
def test_a_job_whose_worker_stops_a_second_time_is_given_up_in_words_and_its_file_dropped(client, owner, league, settings):
    settings.TASKS = DATABASE_BACKEND
    job, task_id = _running_job(league, owner, restarts=1, silent_for=settings.IMPORT_STALE_AFTER + 1)

    tasks.watch_import.call(job.pk, task_id)

    job.refresh_from_db()
    assert job.status == ImportJob.Status.LOST and job.is_over and bytes(job.source) == b"" and job.finished_at is not None
    assert DBTaskResult.objects.get(pk=task_id).status == "FAILED"
    assert not DBTaskResult.objects.filter(task_path="scores.history.tasks.import_history", status="READY").exists()  # Not tried again.
    client.force_login(owner)
    page = client.get(job.get_absolute_url()).text
    assert "Nothing was imported: the worker running this import stopped before it finished, twice" in page
    assert "hx-trigger" not in page  # The page stops asking.


@pytest.mark.django_db
def test_a_job_that_still_moves_or_waits_its_turn_is_left_alone(owner, league, settings):
    settings.TASKS = DATABASE_BACKEND
    alive, alive_task = _running_job(league, owner, restarts=0, silent_for=settings.IMPORT_STALE_AFTER / 2)
    waiting = ImportJob.objects.create(league=league, user=owner, filename="h.json", source=FILE)
    waiting_task = tasks.import_history.enqueue(waiting.pk).id
    an_hour_ago = timezone.now() - datetime.timedelta(hours=1)
    ImportJob.objects.filter(pk=waiting.pk).update(created_at=an_hour_ago, updated_at=an_hour_ago)

    tasks.watch_import.call(alive.pk, alive_task)
    tasks.watch_import.call(waiting.pk, waiting_task)

    alive.refresh_from_db()
    waiting.refresh_from_db()
    assert (alive.status, alive.restarts, bytes(alive.source)) == (ImportJob.Status.STORING, 0, FILE)
    assert (waiting.status, waiting.restarts, bytes(waiting.source)) == (ImportJob.Status.QUEUED, 0, FILE)
    assert DBTaskResult.objects.get(pk=alive_task).status == "RUNNING"
    # Each is looked at again later: the next look is queued, not yet due.
    later = DBTaskResult.objects.filter(task_path="scores.history.tasks.watch_import", status="READY")
    assert later.count() == 2 and all(result.run_after > timezone.now() for result in later)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_workers_importing_one_file_at_once_store_it_once_and_the_second_finds_it_there(owner, league, monkeypatch):
    """The second used to fail with "the import stopped on an error in the app" (UniqueViolation on the game's code)."""
    services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], code="earlier", rules=rules.Rules())  # The players are known.
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


@pytest.mark.django_db
def test_an_owner_has_so_many_imports_waiting_at_most_and_is_told_why_the_next_is_refused(client, owner, league, make_user, settings):
    settings.TASKS = DATABASE_BACKEND  # No worker runs: the uploads wait.
    settings.IMPORT_MAX_WAITING = 2
    client.force_login(owner)
    assert [upload(client, league, dumps(document(game(code)))).status_code for code in ("a", "b")] == [200, 200]

    response = upload(client, league, dumps(document(game("c"))))

    assert response.status_code == 429
    assert "You have 2 imports waiting or running, the most one person may have: upload this file once one of them is done." in (
        response.text
    )
    assert ImportJob.objects.count() == 2
    # Another owner of the league is not held back by these.
    client.force_login(make_user("oscar", league, Role.OWNER))
    assert upload(client, league, dumps(document(game("d")))).status_code == 200
    # Once one of the first owner's is over, the next is taken.
    ImportJob.objects.filter(user=owner).filter(pk=ImportJob.objects.filter(user=owner).order_by("pk")[0].pk).update(
        status=ImportJob.Status.DONE
    )
    client.force_login(owner)
    assert upload(client, league, dumps(document(game("c")))).status_code == 200


@pytest.mark.django_db(transaction=True)  # The worker commits and closes its connection, as in production.
def test_another_owners_small_import_goes_before_an_owners_further_uploads(client, owner, league, make_user, settings):
    """Five large uploads from one owner made another league's two-hand import wait for all five."""
    settings.TASKS = DATABASE_BACKEND
    client.force_login(owner)
    big = [game(f"big-{i}", hands=[hand("Ann", 2, "Bob", "Cat")] * 5) for i in range(20)]
    for i in range(3):
        upload(client, league, dumps(document(*[dict(found, id=f"{found['id']}-{i}") for found in big])), name=f"big-{i}.json")
    other = League.objects.create(name="Friday", slug="friday")
    Membership.objects.create(league=other, user=make_user("oscar"), role=Role.OWNER)
    client.force_login(other.memberships.get().user)
    upload(client, other, dumps(document(game("small", hands=[SPEC_HAND, SPEC_HAND]))), name="small.json")

    call_command("db_worker", batch=True, max_tasks=2, startup_delay=False, reload=False, verbosity=0)

    status = dict(ImportJob.objects.values_list("filename", "status"))
    assert status == {"big-0.json": "done", "small.json": "done", "big-1.json": "queued", "big-2.json": "queued"}
