"""Passwords go through every validator wherever they are chosen; sign-ups and reset mails are limited."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse

from scores.accounts import rate_limit
from scores.accounts.models import RequestCount
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()
WEAK = {
    "aaaaaaaaaaaa": "at least 5 different characters",
    "abababababababab": "at least 5 different characters",
    "password1234": "too common",
    "123456789012345": "entirely numeric",
    "olive-gardener": "too similar to the username",
}


def _signup(client, username="olive-gardener", password="correct horse battery", email="", address="192.0.2.1"):
    data = {"username": username, "email": email, "password1": password, "password2": password}
    return client.post(reverse("scores:signup"), data, REMOTE_ADDR=address)


@pytest.mark.parametrize(("password", "message"), WEAK.items())
def test_signing_up_with_a_weak_password_is_refused_and_makes_no_account(client, password, message):
    response = _signup(client, password=password)
    assert response.status_code == 400
    assert message in response.text
    assert not User.objects.exists()


@pytest.mark.parametrize(("password", "message"), WEAK.items())
def test_changing_to_a_weak_password_is_refused(client, make_user, password, message):
    user = make_user("olive-gardener")
    client.force_login(user)
    response = client.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": password, "new_password2": password})
    assert response.status_code == 200
    assert message in response.text
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def _reset_link(client, mailoutbox) -> str:
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[-1].body).group(1)
    return client.get(link, follow=True).redirect_chain[-1][0]


def test_resetting_to_a_weak_password_is_refused(client, make_user, mailoutbox):
    user = make_user("olive-gardener")
    User.objects.filter(pk=user.pk).update(email="olive@example.com")
    client.post(reverse("password_reset"), {"email": "olive@example.com"})
    form = _reset_link(client, mailoutbox)
    for password, message in WEAK.items():
        response = client.post(form, {"new_password1": password, "new_password2": password})
        assert response.status_code == 200
        assert message in response.text
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_the_password_help_names_every_rule(client):
    page = client.get(reverse("scores:signup")).text
    assert "at least 12 characters" in page
    assert "at least 5 different characters" in page


def test_sign_ups_from_one_address_are_limited_and_the_next_one_makes_nothing(client):
    for i in range(rate_limit.SIGNUPS_PER_ADDRESS):
        assert _signup(client, username=f"player{i}").status_code == 302
        client.logout()
    response = _signup(client, username="one-too-many")
    assert response.status_code == 429
    assert "Too many sign-ups from your network. Try again in an hour." in response.text
    assert not User.objects.filter(username="one-too-many").exists()
    assert _signup(client, username="from-elsewhere", address="198.51.100.7").status_code == 302


def test_sign_ups_with_one_e_mail_address_are_limited_from_any_network(client):
    for i in range(rate_limit.SIGNUPS_PER_EMAIL):
        assert _signup(client, username=f"player{i}", email="olive@example.com", address=f"192.0.2.{i + 1}").status_code == 302
        client.logout()
    response = _signup(client, username="one-too-many", email="OLIVE@example.com", address="198.51.100.7")
    assert response.status_code == 429
    assert not User.objects.filter(username="one-too-many").exists()


def test_an_invalid_sign_up_is_not_counted(client):
    for _ in range(rate_limit.SIGNUPS_PER_ADDRESS + 1):
        assert _signup(client, password="short").status_code == 400
    assert not RequestCount.objects.exists()
    assert _signup(client).status_code == 302


def test_reset_mails_are_limited_per_e_mail_address_from_any_network(client, make_user, mailoutbox):
    User.objects.filter(pk=make_user("olive").pk).update(email="olive@example.com")
    for i in range(rate_limit.RESETS_PER_EMAIL):
        response = client.post(reverse("password_reset"), {"email": "olive@example.com"}, REMOTE_ADDR=f"192.0.2.{i + 1}")
        assert response.status_code == 302
    response = client.post(reverse("password_reset"), {"email": "Olive@Example.com"}, REMOTE_ADDR="198.51.100.7")
    assert response.status_code == 429
    assert "Too many password-reset requests. Try again in an hour." in response.text
    assert len(mailoutbox) == rate_limit.RESETS_PER_EMAIL


def test_reset_mails_are_limited_per_address_whatever_the_e_mail(client, make_user, mailoutbox):
    for i in range(rate_limit.RESETS_PER_ADDRESS):
        assert client.post(reverse("password_reset"), {"email": f"someone{i}@example.com"}).status_code == 302
    response = client.post(reverse("password_reset"), {"email": "another@example.com"})
    assert response.status_code == 429
    assert mailoutbox == []  # None of these addresses has an account: nothing was sent, and the page did not say so.


def test_the_count_starts_again_in_the_next_window(client, make_user, mailoutbox):
    User.objects.filter(pk=make_user("olive").pk).update(email="olive@example.com")
    for _ in range(rate_limit.RESETS_PER_EMAIL):
        client.post(reverse("password_reset"), {"email": "olive@example.com"})
    RequestCount.objects.update(window=RequestCount.objects.first().window - rate_limit.PERIOD)
    assert client.post(reverse("password_reset"), {"email": "olive@example.com"}).status_code == 302
    assert len(mailoutbox) == rate_limit.RESETS_PER_EMAIL + 1
    assert RequestCount.objects.filter(window__lt=RequestCount.objects.latest("window").window).count() == 0


@pytest.mark.django_db(transaction=True)
def test_parallel_reset_requests_send_no_more_mails_than_the_limit(make_user, mailoutbox):
    from django.test import Client

    from tests.table.test_concurrency import run_together

    User.objects.filter(pk=make_user("olive").pk).update(email="olive@example.com")
    results = run_together(
        [
            lambda i=i: Client().post(reverse("password_reset"), {"email": "olive@example.com"}, REMOTE_ADDR=f"192.0.2.{i}")
            for i in range(12)
        ]
    )
    assert [r for r in results if isinstance(r, Exception)] == []
    assert sorted(r.status_code for r in results) == [302] * rate_limit.RESETS_PER_EMAIL + [429] * (12 - rate_limit.RESETS_PER_EMAIL)
    assert len(mailoutbox) == rate_limit.RESETS_PER_EMAIL


def _production_mailers(monkeypatch, backend: str) -> dict:
    """settings.py's MAILERS as production reads them from the environment (the test runner replaces its own)."""
    monkeypatch.setenv("DEBUG", "false")
    monkeypatch.setenv("SECRET_KEY", "x7-" + "k9Q2mZ4vB8nL1pR6tY3wE5uI0oA" * 2)
    monkeypatch.setenv("EMAIL_BACKEND", backend)
    monkeypatch.setenv("EMAIL_HOST", "smtp.example.com")
    return runpy.run_path(str(Path(settings.BASE_DIR) / "pitchleague" / "settings.py"))["MAILERS"]


def test_a_reset_mail_is_sent_with_debug_off_and_the_locmem_backend(client, make_user, mailoutbox, monkeypatch):
    """The SMTP options (host, port, user, password, TLS) were given to every backend: locmem refused them."""
    mailers = _production_mailers(monkeypatch, "django.core.mail.backends.locmem.EmailBackend")
    User.objects.filter(pk=make_user("olive").pk).update(email="olive@example.com")
    with override_settings(DEBUG=False, MAILERS=mailers):
        response = client.post(reverse("password_reset"), {"email": "olive@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["olive@example.com"]


def test_the_console_backend_takes_no_smtp_options_and_smtp_keeps_them(monkeypatch):
    assert _production_mailers(monkeypatch, "django.core.mail.backends.console.EmailBackend")["default"].get("OPTIONS", {}) == {}
    smtp = _production_mailers(monkeypatch, "django.core.mail.backends.smtp.EmailBackend")["default"]["OPTIONS"]
    assert smtp["host"] == "smtp.example.com" and smtp["port"] == 587 and smtp["use_tls"] is True
