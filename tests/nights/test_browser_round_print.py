"""A round's table cards and score sheets as Chromium prints them: without the site's header, a card and a sheet for
each table, each on a page of its own that fits A4 and Letter alike, in English and in a language whose words run
long; and the widest sheet there is (nine points, a solo table of seven) keeps to its page too."""

from __future__ import annotations

import datetime
import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scores.engine import planner, rules
from scores.leagues.models import League, Membership, Role
from scores.nights import services
from scores.nights.models import Night
from scores.people import services as people_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-password"
NINE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Bartholomew-Maximilian"]
SEVEN = ["Maximiliana-Josefina", "Quinn", "Rosalind-Marguerite", "Sol", "Tim", "Yves", "Zoe"]
# The page's content box on paper (12 mm margins, print.css): the smaller of each side of A4 (210 x 297 mm) and
# Letter (215.9 x 279.4 mm), in CSS pixels (96 to the inch).
MM = 96 / 25.4
CONTENT = {"width": round((210 - 24) * MM), "height": int((279.4 - 24) * MM)}


@pytest.fixture
def night(db) -> Night:
    """A round of nine players by the 13-point rules: a partnership table of four and a solo table of five."""
    league = League.objects.create(name="Kitchen Table", slug="kitchen-table")
    owner = get_user_model().objects.create_user(username="olive", password=PASSWORD)
    Membership.objects.create(league=league, user=owner, role=Role.OWNER)
    return services.start_night(
        league=league,
        name="Friday at the hall",
        played_on=datetime.date(2026, 3, 6),
        seating=planner.Seating(),
        rounds=3,
        game_rules=rules.Rules(variant="13-point"),
        players=[people_services.add_guest(league=league, name=name) for name in NINE],
        by=owner,
    )


def _open_night(page: Page, url: str, night: Night, lang: str) -> None:
    """Logged in as the owner, on the night's page, in the language chosen."""
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Kitchen Table")).to_be_visible()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": url}])
    page.goto(url + night.get_absolute_url())


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def _fits_on_paper(page: Page) -> list[str]:
    """Each printed page laid out at the paper's content width: the ones taller than the paper, or wider."""
    # The click returns once the page is on its way: measure only when print.css lays the sheets out.
    expect(page.locator(".score-sheet-hands").first).to_have_css("table-layout", "fixed")
    page.set_viewport_size(CONTENT)
    return page.evaluate(
        """({width, height}) => [...document.querySelectorAll(".printout-page")]
            .filter((section) => section.scrollHeight > height || section.scrollWidth > width
                || [...section.querySelectorAll("th, td")].some((cell) => cell.scrollWidth > cell.clientWidth + 1))
            .map((section) => section.querySelector("h2").textContent)""",
        CONTENT,
    )


@pytest.mark.parametrize(
    ("lang", "link", "card", "sheet", "point"),
    [
        ("en", "Print table cards and score sheets, round 1", "Table {}", "Score sheet, table {}", "Little joker"),
        ("ceb", "I-print ang mga kard sa lamesa ug mga papel sa iskor, ronda 1", "Lamesa {}", "Papel sa iskor, lamesa {}", None),
    ],
)
def test_the_printout_has_a_card_and_a_sheet_a_page_each_on_a4_and_letter(live_server, page: Page, night, lang, link, card, sheet, point):
    _open_night(page, live_server.url, night, lang)
    page.get_by_role("link", name=link).click()
    header = page.get_by_role("navigation")
    expect(header).to_be_visible()
    expect(page.locator("button[data-print]")).to_be_visible()  # Shown where a script can open the print dialog.

    page.emulate_media(media="print")
    expect(header).to_be_hidden()
    expect(page.locator("button[data-print]")).to_be_hidden()
    expect(page.get_by_role("heading", level=1)).to_be_hidden()
    for table in (1, 2):
        expect(page.get_by_role("heading", name=card.format(table), exact=True)).to_be_visible()
        expect(page.get_by_role("heading", name=sheet.format(table), exact=True)).to_be_visible()
    if point:
        expect(page.get_by_role("columnheader", name=point)).to_have_count(2)
    breaks = page.locator(".printout-page").evaluate_all("(pages) => pages.map((p) => getComputedStyle(p).breakAfter)")
    assert breaks == ["page", "page", "page", "auto"]

    assert _fits_on_paper(page) == []
    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper)
        assert _pages(pdf) == 4, paper
        if os.environ.get("PRINTOUT_PDF_DIR"):  # To look at: pdftoppm -png the file.
            with open(os.path.join(os.environ["PRINTOUT_PDF_DIR"], f"printout-{lang}-{paper}.pdf"), "wb") as out:
                out.write(pdf)


def test_the_widest_sheet_fits_a4_and_letter(live_server, page: Page, night):
    seven = services.start_night(
        league=night.league,
        name="Solo night",
        played_on=datetime.date(2026, 3, 7),
        seating=planner.Seating(partnership=False, solo_size=planner.MAX_SOLO_SIZE),
        rounds=1,
        game_rules=rules.Rules(variant="13-point"),
        players=[people_services.add_guest(league=night.league, name=name) for name in SEVEN],
        by=None,
    )
    assert len(rules.VARIANTS["13-point"].points) == max(len(variant.points) for variant in rules.VARIANTS.values())
    _open_night(page, live_server.url, seven, "vi")
    page.get_by_role("link", name="In thẻ bàn và phiếu ghi điểm, lượt 1").click()
    page.emulate_media(media="print")
    assert _fits_on_paper(page) == []
    expect(page.get_by_role("columnheader", name="G", exact=True)).to_be_visible()  # Seven players, seven columns.
    for paper in ("A4", "Letter"):
        assert _pages(page.pdf(format=paper)) == 2, paper


def test_the_print_button_opens_the_browsers_print_dialog(live_server, page: Page, night):
    page.add_init_script("window.print = () => { document.body.dataset.printed = 'yes'; };")
    _open_night(page, live_server.url, night, "en")
    page.get_by_role("link", name="Print table cards and score sheets, round 1").click()
    page.get_by_role("button", name="Print").click()
    expect(page.locator("body")).to_have_attribute("data-printed", "yes")
