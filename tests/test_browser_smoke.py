"""A real phone-sized Chromium opens the demo league and a finished game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scores.demo import DEMO_PASSWORD, DEMO_USERNAME, create_demo_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_demo_login_shows_a_finished_game_with_its_winner(live_server, page: Page):
    create_demo_league()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(DEMO_USERNAME)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Demo League").click()
    page.get_by_role("link", name=re.compile("won")).first.click()
    expect(page.get_by_role("status")).to_contain_text("won!")
    expect(page.get_by_role("table").first).to_be_visible()
