"""Colours and text size on a phone, in Chromium at the phone sizes: dark when the phone is, light or dark by the
switch in the menu, larger text; each kept on the phone from page to page (theme.js, localStorage)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scores.table.models import Game
from tests import small_league as leagues
from tests.phone import phone_fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


size, browser_context_args = phone_fixtures()


def background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def menu_choice(page: Page, name: str) -> None:
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-pressed", "true")
    page.get_by_text("Menu", exact=True).click()


def test_colours_follow_the_phone_and_the_switch_and_text_grows(scorer_page: Page, league, size):
    page = scorer_page
    leagues.build(league)
    game = Game.objects.get(code="g3")
    html = page.locator("html")
    page.emulate_media(color_scheme="dark")
    page.reload()
    expect(html).to_have_attribute("data-bs-theme", "dark")
    dark = background(page)
    assert dark == "rgb(33, 37, 41)"  # Bootstrap's dark page.
    page.screenshot(path=f"/tmp/standings-dark-{size[0]}x{size[1]}.png", full_page=True)

    menu_choice(page, "Light")  # The switch wins over the phone, and is kept from page to page.
    expect(html).to_have_attribute("data-bs-theme", "light")
    page.goto(page.url.rsplit("/leagues/", 1)[0] + game.get_absolute_url())
    expect(html).to_have_attribute("data-bs-theme", "light")
    assert background(page) == "rgb(255, 255, 255)"
    page.screenshot(path=f"/tmp/game-light-{size[0]}x{size[1]}.png")

    menu_choice(page, "Phone's setting")
    expect(html).to_have_attribute("data-bs-theme", "dark")
    page.emulate_media(color_scheme="light")  # The phone changes: the page follows it at once.
    expect(html).to_have_attribute("data-bs-theme", "light")
    menu_choice(page, "Dark")
    page.reload()
    expect(html).to_have_attribute("data-bs-theme", "dark")
    assert background(page) == dark
    page.screenshot(path=f"/tmp/game-dark-{size[0]}x{size[1]}.png")

    size_of = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    normal = page.evaluate(size_of)
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("button", name="Larger text").click()
    expect(page.get_by_role("button", name="Larger text")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(html).to_have_class("text-large")
    assert page.evaluate(size_of) == normal * 1.25
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    page.screenshot(path=f"/tmp/game-dark-large-{size[0]}x{size[1]}.png")
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("button", name="Larger text").click()
    expect(html).not_to_have_class("text-large")
