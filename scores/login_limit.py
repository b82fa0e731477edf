"""The login limit: after too many failed log-ins for one username, or from one address, refuse more for a while.

Failures are rows in the database (``LoginFailure``), so the limit holds across
every app server. The window slides: an attempt is refused while the window
holds the limit's number of failures, and allowed again once the oldest of them
is older than the window.
"""

from __future__ import annotations

import datetime
import ipaddress

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from .models import LoginFailure

WINDOW = datetime.timedelta(minutes=15)
MAX_FAILURES_PER_USERNAME = 5
# Higher: a pub's or a family's wi-fi is one address for everyone at the table.
MAX_FAILURES_PER_ADDRESS = 20


def client_address(request: HttpRequest) -> str:
    """The address the request came from: behind the proxy, the one it adds last to X-Forwarded-For."""
    address = request.META.get("REMOTE_ADDR") or "0.0.0.0"
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):  # Set by BEHIND_PROXY: only then is the header the proxy's.
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-1].strip()
        address = forwarded or address
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return "0.0.0.0"


def _free_at(failures, limit: int, now: datetime.datetime) -> datetime.datetime | None:
    """When fewer than ``limit`` of these failures are left in the window; None if that is already so."""
    times = list(failures.filter(at__gt=now - WINDOW).order_by("-at").values_list("at", flat=True)[limit - 1 : limit])
    return times[0] + WINDOW if times else None


def retry_after(username: str, address: str) -> datetime.timedelta | None:
    """How long log-ins for this username or from this address are refused; None when they are allowed."""
    now = timezone.now()
    ends = [
        t
        for t in (
            _free_at(LoginFailure.objects.filter(username=username.casefold()), MAX_FAILURES_PER_USERNAME, now),
            _free_at(LoginFailure.objects.filter(address=address), MAX_FAILURES_PER_ADDRESS, now),
        )
        if t is not None
    ]
    return max(ends) - now if ends else None


def record_failure(username: str, address: str) -> None:
    """Count a failed log-in; failures older than the window are dropped on the way."""
    now = timezone.now()
    LoginFailure.objects.filter(at__lte=now - WINDOW).delete()
    LoginFailure.objects.create(username=username.casefold(), address=address, at=now)


def forget(username: str) -> None:
    """A successful log-in wipes the username's failures (the address keeps its count)."""
    LoginFailure.objects.filter(username=username.casefold()).delete()
