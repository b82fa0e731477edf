"""The login limit: too many failed log-ins for a username or from an address are refused for a while."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from scores import login_limit
from scores.models import LoginFailure
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def attempt(client, username: str, password: str, address: str = "192.0.2.1", **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, **extra)


def fail(client, username: str, times: int, address: str = "192.0.2.1") -> None:
    for _ in range(times):
        response = attempt(client, username, "wrong-password", address)
        assert response.status_code == 200
        assert "enter a correct username and password" in response.content.decode()


def test_after_five_failures_even_the_right_password_is_refused_with_a_message(client, make_user):
    make_user("olive")
    fail(client, "olive", login_limit.MAX_FAILURES_PER_USERNAME)
    response = attempt(client, "olive", PASSWORD)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 14 * 60
    assert "Too many failed log-ins for this account or from this network. Try again in 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_refused_attempts_are_not_counted_so_the_lock_ends_with_the_window(client, make_user):
    make_user("olive")
    fail(client, "olive", login_limit.MAX_FAILURES_PER_USERNAME)
    for _ in range(3):
        assert attempt(client, "olive", "wrong-password").status_code == 429
    assert LoginFailure.objects.count() == login_limit.MAX_FAILURES_PER_USERNAME
    # Fifteen minutes later the failures have left the window.
    LoginFailure.objects.update(at=timezone.now() - login_limit.WINDOW - datetime.timedelta(seconds=1))
    response = attempt(client, "olive", PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_four_failures_then_the_right_password_logs_in_and_clears_the_count(client, make_user):
    make_user("olive")
    fail(client, "olive", login_limit.MAX_FAILURES_PER_USERNAME - 1)
    assert attempt(client, "olive", PASSWORD).status_code == 302
    assert not LoginFailure.objects.filter(username="olive").exists()


def test_the_limit_counts_a_username_whatever_its_case_and_from_any_address(client, make_user):
    make_user("olive")
    for i in range(login_limit.MAX_FAILURES_PER_USERNAME):
        fail(client, "Olive" if i % 2 else "olive", 1, address=f"192.0.2.{i + 10}")
    assert attempt(client, "olive", PASSWORD, address="198.51.100.7").status_code == 429


def test_one_address_trying_many_usernames_is_refused_but_other_addresses_are_not(client, make_user):
    make_user("olive")
    for i in range(login_limit.MAX_FAILURES_PER_ADDRESS):
        fail(client, f"guess{i}", 1, address="203.0.113.9")
    response = attempt(client, "olive", PASSWORD, address="203.0.113.9")
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    assert attempt(client, "olive", PASSWORD, address="198.51.100.7").status_code == 302


def test_behind_the_proxy_the_address_is_the_one_the_proxy_forwarded(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="spoofed, 198.51.100.7")
    assert login_limit.client_address(request) == "10.0.0.2"  # Not behind a proxy: the header is the client's word.
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert login_limit.client_address(request) == "198.51.100.7"
    request.META["HTTP_X_FORWARDED_FOR"] = "not-an-address"
    assert login_limit.client_address(request) == "0.0.0.0"


def test_old_failures_are_dropped_when_a_new_one_is_recorded(client, make_user):
    LoginFailure.objects.create(username="old", address="192.0.2.1", at=timezone.now() - datetime.timedelta(hours=1))
    fail(client, "olive", 1)
    assert list(LoginFailure.objects.values_list("username", flat=True)) == ["olive"]


def test_a_form_without_a_password_is_not_counted(client):
    response = client.post(reverse("login"), {"username": "olive", "password": ""})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not LoginFailure.objects.exists()
