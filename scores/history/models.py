"""An import of a history file, run by the background worker (``scores.history.tasks``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..leagues.models import League


class ImportJobQuerySet(models.QuerySet):
    def waiting(self) -> ImportJobQuerySet:
        """Jobs not over yet: waiting for a worker or being run."""
        return self.exclude(status__in=ImportJob.OVER)


class ImportJob(models.Model):
    """A history file uploaded for import, waiting for or run by the background worker (``scores.history.tasks``).

    The file's bytes wait here until the import is over, whatever its end; what it found (the games imported and
    skipped, or every problem) stays for the page that shows it.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting to start")
        CHECKING = "checking", _("Checking the file")
        STORING = "storing", _("Storing the games")
        DONE = "done", _("Done")
        FAILED = "failed", _("Nothing was imported")
        LOST = "lost", _("Stopped with its worker")

    OVER = (Status.DONE, Status.FAILED, Status.LOST)
    # How far along each step is, for the progress bar: the steps take about this share of an import's time.
    PERCENT: dict[str, int] = {
        Status.QUEUED: 5,
        Status.CHECKING: 25,
        Status.STORING: 60,
        Status.DONE: 100,
        Status.FAILED: 100,
        Status.LOST: 100,
    }

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="import_jobs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    filename = models.CharField(max_length=255)
    language = models.CharField(max_length=10, default=settings.LANGUAGE_CODE)  # The uploader's, for the problems.
    source = models.BinaryField(editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    games = models.PositiveIntegerField(default=0)  # Games in the file.
    imported = models.JSONField(default=list)  # Game ids.
    skipped = models.JSONField(default=list)
    matched = models.JSONField(default=list)  # [name in the file, the league player's name] spelt another way.
    problems = models.JSONField(default=list)  # Each problem as text, with where it is.
    restarts = models.PositiveSmallIntegerField(default=0)  # Times it was started again after its worker stopped.
    created_at = models.DateTimeField(auto_now_add=True)
    # The last sign of life of the worker running it (each step, and a heartbeat while it runs), for scores.history.tasks.watch_import.
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = ImportJobQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.filename} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("scores:import_job", args=[self.league.slug, self.pk])

    @property
    def is_over(self) -> bool:
        return self.status in self.OVER

    @property
    def percent(self) -> int:
        return self.PERCENT[self.status]
