"""Background tasks (``django.tasks``), run by the database worker (``manage.py db_worker``)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.tasks import task
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from . import services
from .history import document
from .models import ImportJob


@task
def import_history(job_id: int) -> None:
    """Run an uploaded import (``ImportJob``) through ``services.import_history``, and keep what it found."""
    job = ImportJob.objects.select_related("league").get(pk=job_id)
    if job.status != ImportJob.Status.QUEUED:  # Run once, even if the task is delivered again.
        return
    with translation.override(job.language):  # Problems are told in the language of whoever uploaded the file.
        _run(job, max_games=settings.IMPORT_MAX_GAMES)


def _run(job: ImportJob, *, max_games: int) -> None:
    _set(job, status=ImportJob.Status.CHECKING)

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
    """Save a step of the job at once, outside the import's transaction, so the page polling it sees it."""
    if fields["status"] in (ImportJob.Status.DONE, ImportJob.Status.FAILED):
        # The file is no longer needed once it is read.
        fields.update(finished_at=timezone.now(), source=b"")
    for name, value in fields.items():
        setattr(job, name, value)
    with transaction.atomic():
        ImportJob.objects.filter(pk=job.pk).update(**fields)
