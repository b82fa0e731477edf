"""Limits on sign-ups and password-reset mails: so many per address and per e-mail address an hour.

The counts are rows in the database (``RequestCount``), counted under the row's
lock, so every app server and worker shares them and parallel requests cannot
slip past the limit. django-ratelimit does the same with a cache, but needs a
shared cache with atomic increments (memcached, Redis); this deployment has only
PostgreSQL, and Django's database cache does not increment atomically.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .models import RequestCount

PERIOD = datetime.timedelta(hours=1)
SIGNUPS_PER_ADDRESS = 10  # A table in a pub signs up from one address.
SIGNUPS_PER_EMAIL = 3  # The e-mail is optional and not unique: this bounds the accounts made for one address.
RESETS_PER_ADDRESS = 10
RESETS_PER_EMAIL = 3


def _window_start(now: datetime.datetime) -> datetime.datetime:
    return now - datetime.timedelta(seconds=now.timestamp() % PERIOD.total_seconds())


@transaction.atomic
def allow(limits: dict[str, int]) -> bool:
    """Count one request against each key; False, counting nothing, if any key has used its limit this window."""
    window = _window_start(timezone.now())
    RequestCount.objects.filter(window__lt=window).delete()
    # Lock in key order, so two requests sharing two keys cannot wait on each other.
    counts = [RequestCount.objects.select_for_update().get_or_create(key=key, window=window)[0] for key in sorted(limits)]
    if any(count.count >= limits[count.key] for count in counts):
        return False
    RequestCount.objects.filter(pk__in=[count.pk for count in counts]).update(count=F("count") + 1)
    return True
