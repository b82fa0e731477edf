"""Signing up, logging in and out, passwords, and starting a league."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scores.leagues.models import League, Membership, Role
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


def _signup(client, username="newbie", password="correct horse battery", **extra):
    data = {"username": username, "email": "", "password1": password, "password2": password, **extra}
    return client.post(reverse("scores:signup"), data)


def test_signing_up_makes_an_account_and_logs_in(client):
    response = _signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("scores:home")
    assert User.objects.filter(username="newbie").exists()
    home = client.get(reverse("scores:home"))
    assert home.context["user"].username == "newbie"
    assert "New league" in home.text


def test_a_password_shorter_than_12_characters_is_refused_and_no_account_made(client):
    response = _signup(client, password="short4pw!")
    assert response.status_code == 400
    assert "at least 12 characters" in response.text
    assert not User.objects.filter(username="newbie").exists()


def test_signing_up_returns_to_the_invite_link_it_came_from(client):
    response = _signup(client, next="/invite/some-token/")
    assert response["Location"] == "/invite/some-token/"


def test_signing_up_ignores_a_next_address_on_another_site(client):
    response = _signup(client, next="https://evil.example/")
    assert response["Location"] == reverse("scores:home")


def test_the_log_in_page_links_to_sign_up_and_password_reset_keeping_next(client):
    response = client.get(reverse("login") + "?next=/invite/abc/")
    assert 'href="/accounts/signup/?next=/invite/abc/"' in response.text
    assert "Forgotten your password?" in response.text


def test_log_in_and_log_out(client, make_user):
    make_user("olive")
    response = client.post(reverse("login"), {"username": "olive", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("scores:home")).context["user"].is_authenticated
    client.post(reverse("logout"))
    assert not client.get(reverse("scores:home")).context["user"].is_authenticated


def test_changing_the_password(client, make_user):
    user = make_user("olive")
    client.force_login(user)
    page = client.get(reverse("password_change"))
    assert "Change password" in page.text
    new = "a-brand-new-password"
    response = client.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": new, "new_password2": new})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_resetting_a_forgotten_password_by_e_mail(client, make_user, mailoutbox):
    user = make_user("olive")
    user.email = "olive@example.com"
    user.save()
    response = client.post(reverse("password_reset"), {"email": "olive@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.text
    new = "reset-password-works"
    done = client.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_starting_a_league_makes_me_its_owner(client, make_user):
    user = make_user("olive")
    client.force_login(user)
    response = client.post(reverse("scores:league_new"), {"name": "  Friday Night Pitch "})
    league = League.objects.get()
    assert league.name == "Friday Night Pitch"
    assert league.slug == "friday-night-pitch"
    assert response["Location"] == league.get_absolute_url()
    assert Membership.objects.get(league=league, user=user).role == Role.OWNER


def test_two_leagues_of_the_same_name_get_different_short_names(client, make_user):
    client.force_login(make_user("olive"))
    for _ in range(3):
        client.post(reverse("scores:league_new"), {"name": "Pitch"})
    client.post(reverse("scores:league_new"), {"name": "New"})  # "new" is the address of this very form.
    client.post(reverse("scores:league_new"), {"name": "!!!"})
    assert sorted(League.objects.values_list("slug", flat=True)) == ["league", "new-2", "pitch", "pitch-2", "pitch-3"]


def test_a_league_needs_a_name(client, make_user):
    client.force_login(make_user("olive"))
    response = client.post(reverse("scores:league_new"), {"name": "   "})
    assert response.status_code == 400
    assert "This field is required." in response.text
    assert not League.objects.exists()


def test_starting_a_league_needs_an_account(client):
    response = client.post(reverse("scores:league_new"), {"name": "Pitch"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not League.objects.exists()


def test_home_lists_my_leagues_only(client, make_user, league):
    mine = make_user("olive", league)
    make_user("stan", League.objects.create(name="Someone Else's", slug="else"))
    client.force_login(mine)
    response = client.get(reverse("scores:home"))
    assert "Thursday Pitch" in response.text
    assert "Someone Else&#x27;s" not in response.text and "Someone Else's" not in response.text
