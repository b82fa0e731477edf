"""axe-core (WCAG 2.1 AA) in a phone-sized Chromium: no serious or critical fault on the game, standings and new-game
pages, in the light colours and the dark ones (the phone's setting, and the switch in the menu).

axe-core comes from the pinned axe-playwright-python package (its axe.min.js), injected from disk: no CDN."""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python
import pytest
from playwright.sync_api import Page, expect

from scores.table.models import Game
from tests import small_league as leagues

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(axe_playwright_python.__file__).with_name("axe.min.js")
SERIOUS = {"serious", "critical"}


def serious_faults(page: Page) -> list[str]:
    """axe's serious and critical violations of WCAG 2.0/2.1 A and AA on the page, one line each with where they are."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(' '.join(node['target']) for node in v['nodes'])}"
        + "".join(f"\n    {node['failureSummary']}" for node in v["nodes"][:3])
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.fixture
def browser_context_args(browser_context_args):
    # The page's CSP allows no inline script, and add_script_tag inlines axe: the test's own script, not the page's.
    return {**browser_context_args, "bypass_csp": True}


@pytest.fixture
def pages(scorer_page: Page, live_server, league) -> dict[str, str]:
    leagues.build(league)
    game = Game.objects.get(code="g3")  # In progress: the hand form is on the page.
    return {
        "standings": live_server.url + league.get_absolute_url(),
        "game": live_server.url + game.get_absolute_url(),
        "new game": live_server.url + f"/leagues/{league.slug}/games/new/",
    }


def faults_on(page: Page, pages: dict[str, str]) -> dict[str, list[str]]:
    faults = {}
    for name, url in pages.items():
        page.goto(url)
        expect(page.get_by_text("Menu", exact=True)).to_be_visible()
        faults[name] = serious_faults(page)
    return faults


def no_faults(faults: dict[str, list[str]]) -> str:
    return "\n".join(f"{name}:\n  " + "\n  ".join(found) for name, found in faults.items() if found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_fault_on_the_main_pages_in_the_phones_colours(scorer_page: Page, pages, scheme):
    page = scorer_page
    page.emulate_media(color_scheme=scheme)
    faults = faults_on(page, pages)
    expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
    assert faults == {name: [] for name in pages}, no_faults(faults)


def test_no_serious_fault_on_the_main_pages_dark_by_the_switch_with_larger_text(scorer_page: Page, pages):
    page = scorer_page
    page.emulate_media(color_scheme="light")
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("button", name="Dark", exact=True).click()
    page.get_by_role("button", name="Larger text").click()
    expect(page.get_by_role("button", name="Larger text")).to_have_attribute("aria-pressed", "true")
    faults = faults_on(page, pages)
    expect(page.locator("html")).to_have_attribute("data-bs-theme", "dark")
    expect(page.locator("html")).to_have_class("text-large")
    assert faults == {name: [] for name in pages}, no_faults(faults)
