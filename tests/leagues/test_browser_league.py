"""The issue's "done when", in a real phone-sized Chromium: sign up, start a league, invite a scorer,
play two games, and see standings, player pages and charts; a stranger sees nothing, the public link shows standings."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from scores.leagues.models import League
from tests import small_league as leagues

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-password"


def _sign_up(page: Page, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").first.fill(PASSWORD)  # "Password confirmation" matches too; it comes second.
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def test_a_new_league_from_sign_up_to_standings(live_server, page: Page, browser: Browser):
    page.goto(live_server.url)
    page.get_by_role("link", name="Sign up").first.click()
    _sign_up(page, "olive")
    page.get_by_role("link", name="New league").click()
    page.get_by_label("League name").fill("Kitchen Table")
    page.get_by_role("button", name="Create league").click()
    expect(page.get_by_role("heading", name="Kitchen Table")).to_be_visible()

    page.get_by_role("link", name="Members").click()
    page.get_by_label("Invite as").select_option(label="Scorer")
    page.get_by_role("button", name="Make an invite link").click()
    invite_url = page.get_by_label("Invite link").input_value()

    sam = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sam.goto(invite_url)
    sam.get_by_role("link", name="Sign up").last.click()
    _sign_up(sam, "sam")
    expect(sam.get_by_text("You are invited to join as Scorer.")).to_be_visible()
    sam.get_by_role("button", name="Join the league").click()
    expect(sam.get_by_role("heading", name="Kitchen Table")).to_be_visible()
    expect(page.get_by_role("link", name="Members")).to_be_visible()
    expect(sam.get_by_role("link", name="Members")).to_have_count(0)  # Scorers do not manage members.

    leagues.build(League.objects.get(name="Kitchen Table"))  # Two finished games (one partnership) and one in progress.
    page.get_by_role("link", name="Standings").click()
    ann = page.get_by_role("row", name=re.compile(r"^Ann "))
    expect(ann).to_contain_text("2 1 8 1.33 50 3 100 0 3 1 2 2 L1")
    expect(page.get_by_role("img", name="Ratings over time")).to_be_visible()
    page.get_by_role("link", name="Pts ▼").click()  # Sorted high to low already: now low to high.
    expect(page.get_by_role("row").nth(1)).to_contain_text("Cat")
    page.screenshot(path="/tmp/league-page.png", full_page=True)

    page.get_by_role("link", name="Bob").first.click()
    expect(page.get_by_text("Best partner: Dan (won 1 of 1)")).to_be_visible()
    expect(page.get_by_role("img", name="Rating over time")).to_be_visible()

    stan = browser.new_context().new_page()
    stan.goto(live_server.url + "/accounts/signup/")
    _sign_up(stan, "stan")
    response = stan.goto(live_server.url + "/leagues/kitchen-table/")
    assert response.status == 404

    page.goto(live_server.url + "/leagues/kitchen-table/settings/")
    page.get_by_role("button", name="Turn on the public link").click()
    public_url = page.get_by_label("The public link").input_value()
    anyone = browser.new_context().new_page()
    anyone.goto(public_url)
    expect(anyone.get_by_role("heading", name="Standings")).to_be_visible()
    expect(anyone.get_by_role("row", name=re.compile(r"^Dan "))).to_contain_text("1 1 7 3.50 100")
    expect(anyone.get_by_role("button", name="Log out")).to_have_count(0)
    anyone.get_by_role("link", name=re.compile("Ann won")).click()
    expect(anyone.get_by_role("img", name="Score by hand")).to_be_visible()
    anyone.screenshot(path="/tmp/public-game.png", full_page=True)
