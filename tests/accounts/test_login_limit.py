"""The login limit (django-axes): 5 failed log-ins for a username from one address lock that pair for 15 minutes."""

from __future__ import annotations

import datetime
import threading

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scores.accounts import login_limit
from tests.conftest import PASSWORD
from tests.table.test_concurrency import run_together

pytestmark = pytest.mark.django_db
LIMIT = settings.AXES_FAILURE_LIMIT
LOCKED = "Too many failed log-ins for this account from your network. Try again in 15 minutes."


def attempt(client, username: str, password: str, address: str = "192.0.2.1", url: str | None = None):
    return client.post(url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def fail(client, username: str, times: int, address: str = "192.0.2.1", url: str | None = None) -> None:
    """Wrong passwords; the one that reaches the limit is answered with the lock (429) instead of the form."""
    for _ in range(times):
        response = attempt(client, username, "wrong-password", address, url)
        assert response.status_code in (200, 429)
        assert "_auth_user_id" not in client.session


def test_the_fifth_failure_locks_and_then_even_the_right_password_is_refused_with_a_message(client, make_user):
    make_user("olive")
    fail(client, "olive", LIMIT - 1)
    fifth = attempt(client, "olive", "wrong-password")
    assert fifth.status_code == 429
    assert LOCKED in fifth.text
    response = attempt(client, "olive", PASSWORD)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 14 * 60
    assert LOCKED in response.text
    assert "_auth_user_id" not in client.session


def test_the_lockout_message_is_translated(client, make_user):
    make_user("olive")
    fail(client, "olive", LIMIT - 1)
    response = client.post(reverse("login"), {"username": "olive", "password": "wrong"}, REMOTE_ADDR="192.0.2.1", HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 429
    assert "Troppi accessi non riusciti" in response.text


def test_refused_attempts_are_not_counted_so_the_lock_ends_with_the_window(client, make_user):
    make_user("olive")
    fail(client, "olive", LIMIT)
    for _ in range(3):
        assert attempt(client, "olive", "wrong-password").status_code == 429
    assert AccessAttempt.objects.get().failures_since_start == LIMIT
    # Fifteen minutes after the last password checked, the failures have left the window.
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - settings.AXES_COOLOFF_TIME)
    response = attempt(client, "olive", PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_four_failures_then_the_right_password_logs_in_and_clears_the_count(client, make_user):
    make_user("olive")
    for _ in range(LIMIT - 1):
        assert "enter a correct username and password" in attempt(client, "olive", "wrong-password").text
    assert attempt(client, "olive", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.exists()


def test_failures_from_one_address_do_not_lock_out_the_user_logging_in_from_another(client, make_user):
    make_user("olive")
    fail(client, "olive", LIMIT, address="203.0.113.9")
    assert attempt(client, "olive", PASSWORD, address="203.0.113.9").status_code == 429
    response = attempt(client, "olive", PASSWORD, address="198.51.100.7")
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_the_admin_log_in_counts_against_the_same_limit(client, make_user):
    admin = make_user("olive")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    admin_login = reverse("admin:login")
    # Failures at the admin's log-in lock the app's log-in...
    fail(client, "olive", LIMIT, url=admin_login)
    assert attempt(client, "olive", PASSWORD).status_code == 429
    # ...and the other way round: the admin's log-in is no way around the lock.
    fail(client, "olive", LIMIT, address="192.0.2.2")
    response = attempt(client, "olive", PASSWORD, address="192.0.2.2", url=admin_login)
    assert response.status_code == 429
    assert LOCKED in response.text
    assert "_auth_user_id" not in client.session


def test_behind_the_proxy_the_address_is_the_one_the_proxy_forwarded(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="spoofed, 198.51.100.7")
    assert login_limit.client_address(request) == "10.0.0.2"  # Not behind a proxy: the header is the client's word.
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert login_limit.client_address(request) == "198.51.100.7"
    request.META["HTTP_X_FORWARDED_FOR"] = "not-an-address"
    assert login_limit.client_address(request) == "0.0.0.0"


def test_old_failures_are_dropped_when_a_new_attempt_is_counted(client, make_user):
    fail(client, "old", 1)
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - datetime.timedelta(hours=1))
    fail(client, "olive", 1)
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["olive"]


def test_a_form_without_a_password_is_not_counted(client):
    response = client.post(reverse("login"), {"username": "olive", "password": ""})
    assert response.status_code == 200
    assert "This field is required." in response.text
    assert not AccessAttempt.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_sixteen_parallel_wrong_passwords_get_only_five_checked(make_user, monkeypatch):
    """Each attempt is counted before its password is checked, under a lock: the 16 race for 5 places."""
    make_user("olive")
    checked, lock = [], threading.Lock()
    check_password = get_user_model().check_password

    def counting_check(user, raw_password: str) -> bool:
        with lock:
            checked.append(raw_password)
        return check_password(user, raw_password)

    monkeypatch.setattr(get_user_model(), "check_password", counting_check)
    results = run_together([lambda i=i: attempt(Client(), "olive", f"wrong-{i}") for i in range(16)])
    assert [r for r in results if isinstance(r, Exception)] == []
    assert len(checked) == LIMIT
    assert sorted(r.status_code for r in results) == [200] * (LIMIT - 1) + [429] * (16 - LIMIT + 1)
    assert AccessAttempt.objects.get().failures_since_start == LIMIT
