"""What an account keeps besides Django's user: the counts behind the sign-up and reset limits, and the language chosen."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RequestCount(models.Model):
    """How often one key (an address, an e-mail) asked for a limited action in one window (``scores.accounts.rate_limit``)."""

    key = models.CharField(max_length=300)  # "signup:address:192.0.2.1", "reset:email:olive@example.com"
    window = models.DateTimeField()  # When the window began.
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "window"], name="unique_request_count_key_window")]
        indexes = [models.Index(fields=["window"])]

    def __str__(self) -> str:
        return f"{self.key} at {self.window:%Y-%m-%d %H:%M}: {self.count}"


class AccountLanguage(models.Model):
    """The language a signed-in player chose with the switcher (``scores.accounts.language``): a log-in on any phone speaks it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+")
    language = models.CharField(max_length=10)  # A code of settings.LANGUAGES, checked by the switcher's view.

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
