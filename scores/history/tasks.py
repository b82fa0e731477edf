"""Background tasks (``django.tasks``), run by the database worker (``manage.py db_worker``).

An upload becomes an ``ImportJob`` and two tasks: ``import_history`` runs it and ``watch_import`` looks at it from the
side now and then. A worker killed in the middle of an import (``kill -9``, the machine out of memory) leaves its task
"running" for ever, and django-tasks-db cannot tell (it keeps no heartbeat): so the job says its worker is alive
(``updated_at``: at each step, and from a thread of its own while it runs), and a job silent for
``IMPORT_STALE_AFTER`` seconds is started again once, then given up. The file is dropped once the job is over.
"""

from __future__ import annotations

import contextlib
import datetime
import threading
from collections.abc import Iterator

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.tasks import TaskResultStatus, task
from django.tasks.base import TASK_MAX_PRIORITY, TASK_MIN_PRIORITY
from django.tasks.exceptions import TaskResultDoesNotExist
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..common.refusals import Refused
from ..leagues.models import League
from . import document, services
from .models import ImportJob

RESTARTS = 1  # A file that stops its worker twice (too large for its memory, say) is not tried a third time.
HEARTBEATS = 6  # Signs of life a running import gives in IMPORT_STALE_AFTER.


class WorkerStopped(Exception):
    """What django-tasks-db's row of a task whose worker stopped in the middle of it is failed with."""


def queue_import(*, league: League, user, filename: str, language: str, source: bytes) -> ImportJob:
    """Keep an upload as an ``ImportJob`` and queue its import, or refuse it (``Refused``, nothing kept)
    when ``user`` already has ``IMPORT_MAX_WAITING`` imports waiting or running."""
    with transaction.atomic():
        # Two uploads at one moment are counted one after the other (on SQLite the IMMEDIATE transaction does it).
        list(get_user_model().objects.select_for_update().filter(pk=user.pk))  # Only the lock is wanted.
        waiting = ImportJob.objects.filter(user=user).waiting().count()
        if waiting >= settings.IMPORT_MAX_WAITING:
            raise Refused(
                ngettext(
                    "You have %(count)d import waiting or running, the most one person may have: upload this file once it is done.",
                    "You have %(count)d imports waiting or running, the most one person may have: "
                    "upload this file once one of them is done.",
                    waiting,
                )
                % {"count": waiting}
            )
        job = ImportJob.objects.create(league=league, user=user, filename=filename, language=language, source=source)
    _enqueue(job)
    job.refresh_from_db()  # Over already when the task backend runs tasks at once (ImmediateBackend).
    return job


def _enqueue(job: ImportJob) -> None:
    """Queue the job's import, and a look at it once it could have been silent too long.

    The worker takes tasks by priority, then in the order queued. An import's priority goes down by one for each
    import of the same person waiting or running beside it, so anyone's first import goes before the second of
    someone with several: one owner's pile of large uploads does not hold up another league's small one.
    """
    beside = ImportJob.objects.filter(user=job.user_id).waiting().exclude(pk=job.pk).count() if job.user_id else 0
    run = import_history.using(priority=max(TASK_MIN_PRIORITY, -beside)).enqueue(job.pk)
    _watch_later(job.pk, run.id, after=timezone.now())


def _watch_later(job_id: int, task_id: str, *, after: datetime.datetime) -> None:
    if watch_import.get_backend().supports_defer:  # A backend that cannot wait ran the import already, at once.
        watch_import.using(run_after=after + datetime.timedelta(seconds=settings.IMPORT_STALE_AFTER)).enqueue(job_id, task_id)


@task
def import_history(job_id: int) -> None:
    """Run an uploaded import (``ImportJob``) through ``services.import_history``, and keep what it found."""
    # Taken in one statement: run once, even if the task is delivered again or the job was queued again meanwhile.
    now = timezone.now()
    if not ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(status=ImportJob.Status.CHECKING, updated_at=now):
        return
    job = ImportJob.objects.select_related("league").get(pk=job_id)
    # Problems are told in the language of whoever uploaded the file.
    with translation.override(job.language), _heartbeat(job):
        _run(job, max_games=settings.IMPORT_MAX_GAMES)


def _run(job: ImportJob, *, max_games: int) -> None:
    def storing(games: int) -> None:
        _set(job, status=ImportJob.Status.STORING, games=games)

    try:
        report = services.import_history(league=job.league, source=bytes(job.source), max_games=max_games, on_storing=storing)
    except document.HistoryError as error:
        _set(job, status=ImportJob.Status.FAILED, problems=[str(problem) for problem in error.problems])
    except Exception:
        # Not the file's fault: the page says so instead of waiting for ever, and the worker logs the traceback.
        _set(
            job,
            status=ImportJob.Status.FAILED,
            problems=[_("the import stopped on an error in the app; nothing was imported, try again later")],
        )
        raise
    else:
        _set(
            job,
            status=ImportJob.Status.DONE,
            imported=list(report.imported),
            skipped=list(report.skipped),
            matched=[list(pair) for pair in report.matched],
        )


def _set(job: ImportJob, **fields: object) -> None:
    """Save a step of the job at once, outside the import's transaction, so the page polling it sees it; each step is
    a sign of life. A run whose job was started again without it (taken for dead) changes nothing any more."""
    if fields["status"] in ImportJob.OVER:
        fields.update(finished_at=timezone.now(), source=b"")  # The file is not kept once the import is over.
    fields["updated_at"] = timezone.now()
    for name, value in fields.items():
        setattr(job, name, value)
    with transaction.atomic():
        ImportJob.objects.filter(pk=job.pk, restarts=job.restarts).update(**fields)


@contextlib.contextmanager
def _heartbeat(job: ImportJob) -> Iterator[None]:
    """While the import runs, a thread with a connection of its own says the worker is alive: the import's own
    transaction cannot (nobody sees its writes before it commits). On SQLite that transaction holds the one write
    lock, so a beat waits for it, or is skipped when it waits too long."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(settings.IMPORT_STALE_AFTER / HEARTBEATS):
                with contextlib.suppress(DatabaseError):
                    ImportJob.objects.filter(pk=job.pk, restarts=job.restarts).waiting().update(updated_at=timezone.now())
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"import-{job.pk}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@task(priority=TASK_MAX_PRIORITY)  # Quick, and due only when an import may be lost: ahead of every import waiting.
def watch_import(job_id: int, task_id: str) -> None:
    """Look at an import (``task_id`` runs the job) from the side, and again later while it is not over.

    Left alone while its task waits for a worker, however long, and while its worker gives signs of life. Once the
    worker has been silent for ``IMPORT_STALE_AFTER`` seconds, the task is failed in django-tasks-db's table (which
    would keep it "running" for ever) and the job is started again, once; the second time it is given up (``LOST``).
    """
    job = ImportJob.objects.defer("source").filter(pk=job_id).first()
    if job is None or job.is_over:
        return
    try:
        run = import_history.get_backend().get_result(task_id)
    except TaskResultDoesNotExist:
        run = None
    now = timezone.now()
    if run is not None and run.status == TaskResultStatus.READY:
        last_sign = now
    else:  # Taken by a worker: its last sign of life is its start, or the job's last step or beat.
        last_sign = max(job.updated_at, run.started_at) if run is not None and run.started_at else job.updated_at
    if now - last_sign < datetime.timedelta(seconds=settings.IMPORT_STALE_AFTER):
        _watch_later(job.pk, task_id, after=last_sign)
        return
    if run is not None and run.status == TaskResultStatus.RUNNING:
        # The imports' backend is django-tasks-db's (settings.TASKS), whose results carry their row; its get_result says less.
        run.db_result.set_failed(WorkerStopped(f"no sign of life from its worker for {settings.IMPORT_STALE_AFTER:g} s"))  # type: ignore[attr-defined]
    if job.restarts >= RESTARTS:
        _set(job, status=ImportJob.Status.LOST)
        return
    # Only if nothing moved since it was read: a late beat means the worker lives after all.
    if ImportJob.objects.filter(pk=job.pk, restarts=job.restarts, updated_at=job.updated_at).update(
        status=ImportJob.Status.QUEUED, restarts=F("restarts") + 1, updated_at=now
    ):
        _enqueue(job)
    else:
        _watch_later(job.pk, task_id, after=now)
