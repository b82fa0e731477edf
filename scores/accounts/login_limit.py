"""The login limit, kept by django-axes: 5 failed log-ins for one username from one address lock that pair for 15 minutes.

Axes' authentication backend runs inside ``django.contrib.auth.authenticate``, so
every log-in form (ours, the admin's) counts against the same limit. The key is
the username *and* the address (``AXES_LOCKOUT_PARAMETERS``): an attacker guessing
from one address locks only that address out of the account, never its owner
logging in from elsewhere.

Axes' database handler reads the count before the password check and writes it
after, so parallel attempts all read the same count and all get their password
checked (16 at once let 16 through). ``AtomicDatabaseHandler`` counts an attempt
*before* its password is checked, under the attempt row's lock, and a successful
log-in wipes the count (``AXES_RESET_ON_SUCCESS``).
"""

from __future__ import annotations

import datetime
import ipaddress
import math
from typing import TYPE_CHECKING

from axes.backends import AxesBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db import router, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

if TYPE_CHECKING:

    class AxesRequest(HttpRequest):
        """A request as axes' middleware leaves it (``AxesProxyHandler.update_request``) and its handlers mark it."""

        axes_ip_address: str | None
        axes_attempt_time: datetime.datetime
        axes_http_accept: str
        axes_path_info: str
        axes_locked_out: bool
        axes_locked_until: datetime.datetime
        axes_failures_since_start: int | None
        axes_credentials: dict | None


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


class LoginLimitBackend(AxesBackend):
    """Axes' backend; a log-in with no request (the test client's ``login()``, a shell) has no address to count."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs):
        if request is None:
            return None  # ModelBackend, next in AUTHENTICATION_BACKENDS, checks the password.
        return super().authenticate(request, username, password, **kwargs)


class AtomicDatabaseHandler(AxesDatabaseHandler):
    """Axes' database handler, counting each attempt before its password is checked, one attempt at a time."""

    def is_allowed(self, request: AxesRequest, credentials: dict | None = None) -> bool:
        if self.is_blacklisted(request, credentials):
            return False
        if self.is_whitelisted(request, credentials):
            return True
        return self._count_attempt(request, credentials)

    def _count_attempt(self, request: AxesRequest, credentials: dict | None) -> bool:
        """Count one more attempt for this username and address, unless the limit is reached: then refuse it."""
        self.clean_expired_user_attempts(request, credentials)  # So the row found, if any, counts failures in the window.
        limit, cool_off = get_failure_limit(request, credentials), get_cool_off(request)
        # The user agent is not part of the key: one row per username and address, so its lock orders every attempt.
        with transaction.atomic(using=router.db_for_write(AccessAttempt)):
            attempt, _ = AccessAttempt.objects.select_for_update().get_or_create(
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
                user_agent="",
                defaults={"failures_since_start": 0, "get_data": "", "post_data": "", "http_accept": "", "path_info": ""},
            )
            if attempt.failures_since_start >= limit:
                # Refused attempts are not counted: the lock ends 15 minutes after the last password checked.
                request.axes_locked_out = True
                request.axes_locked_until = attempt.attempt_time + cool_off
                return False
            attempt.failures_since_start += 1  # The row is locked: nobody else changes it before we commit.
            attempt.attempt_time = request.axes_attempt_time
            attempt.http_accept, attempt.path_info = request.axes_http_accept, request.axes_path_info
            attempt.save()
        request.axes_failures_since_start = attempt.failures_since_start
        request.axes_locked_until = attempt.attempt_time + cool_off
        return True

    def user_login_failed(self, sender, credentials: dict, request: AxesRequest | None = None, **kwargs) -> None:
        """The attempt was counted before its password was checked; the last one allowed answers with the lock."""
        if request is None:
            return
        failures = request.axes_failures_since_start
        if request.axes_locked_out or (failures is not None and failures >= get_failure_limit(request, credentials)):
            request.axes_locked_out = True
            request.axes_credentials = credentials


def lockout_response(request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None) -> HttpResponse:
    """429 and a page saying how long to wait, whichever log-in form was used (AXES_LOCKOUT_CALLABLE)."""
    until = getattr(request, "axes_locked_until", None) or timezone.now() + get_cool_off(request)
    wait = max(until - timezone.now(), datetime.timedelta(seconds=1))
    response = render(request, "registration/locked_out.html", {"minutes": math.ceil(wait.total_seconds() / 60)}, status=429)
    response["Retry-After"] = str(math.ceil(wait.total_seconds()))
    return response
