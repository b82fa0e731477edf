"""Who may do what, in a real phone-sized Chromium, by the controls' visible names: an owner replaces and turns off a
game's watch link, makes a one-day invite link, and removes a member, whom the old link then refuses."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from scores.engine import rules
from scores.leagues.models import League, Membership, Role
from scores.table import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-password"


def _log_in(page: Page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


@pytest.fixture
def table(db):
    league = League.objects.create(name="Kitchen Table", slug="kitchen-table")
    for name, role in [("olive", Role.OWNER), ("sam", Role.SCORER)]:
        user = get_user_model().objects.create_user(username=name, password=PASSWORD)
        Membership.objects.create(league=league, user=user, role=role)
    return league, services.start_game(league=league, seats=["Ann", "Bob", "Cat"], code="g1", rules=rules.Rules())


def test_an_owner_replaces_and_turns_off_the_watch_link(live_server, page: Page, browser: Browser, table):
    _league, game = table
    _log_in(page, live_server.url, "olive")
    page.goto(live_server.url + game.get_absolute_url())
    old = page.get_by_role("link", name="/watch/").get_attribute("href")
    anyone = browser.new_context().new_page()
    assert anyone.goto(old).status == 200

    page.get_by_role("button", name="Replace the watch link").click()
    expect(page.get_by_text("The watch link is new: the old one no longer opens the game.")).to_be_visible()
    new = page.get_by_role("link", name="/watch/").get_attribute("href")
    assert new != old
    assert anyone.goto(old).status == 404
    assert anyone.goto(new).status == 200

    page.get_by_role("button", name="Turn the watch link off").click()
    expect(page.get_by_text("The watch link is off: nobody can follow this game without an account.")).to_be_visible()
    expect(page.get_by_role("link", name="/watch/")).to_have_count(0)
    expect(page.get_by_role("button", name="Turn the watch link on")).to_be_visible()
    assert anyone.goto(new).status == 404


def test_a_removed_member_is_refused_by_the_link_they_joined_with(live_server, page: Page, browser: Browser, table):
    league, _game = table
    _log_in(page, live_server.url, "olive")
    page.goto(f"{live_server.url}/leagues/{league.slug}/members/")
    page.get_by_label("Invite as").select_option(label="Viewer")
    page.get_by_label("Expires after").select_option(label="1 day")
    page.get_by_role("button", name="Make an invite link").click()
    expect(page.get_by_text("Joins as Viewer · works until")).to_be_visible()
    invite_url = page.get_by_label("Invite link").input_value()

    vic = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    get_user_model().objects.create_user(username="vic", password=PASSWORD)
    _log_in(vic, live_server.url, "vic")
    vic.goto(invite_url)
    vic.get_by_role("button", name="Join the league").click()
    expect(vic.get_by_role("heading", name="Kitchen Table")).to_be_visible()

    page.reload()
    page.get_by_role("button", name="Remove vic").click()
    expect(page.get_by_text("vic is no longer a member.")).to_be_visible()
    response = vic.goto(invite_url)
    assert response.status == 403
    expect(vic.get_by_text("You were removed from this league: ask an owner to invite you again.")).to_be_visible()
    expect(vic.get_by_role("button", name="Join the league")).to_have_count(0)
