"""The standings, the latest games and a player's page on a phone, in Chromium at the phone sizes: nothing wider than the
screen, the name, wins and points in view at once, the other columns a slide away as the page says, and each game with
its final scores and winner, every date written one way."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scores.leagues import services
from scores.leagues.models import Player
from tests import small_league as leagues
from tests.phone import phone_fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


size, browser_context_args = phone_fixtures()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), page.evaluate(
        "[document.scrollingElement.scrollWidth, innerWidth]"
    )


def fully_in_view_sideways(page: Page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]


def name_wins_points(row, name: str, wins: str, points: str) -> list:
    """The row's name, wins and points cells (after the name: games played, wins, points), checked by what they say."""
    cells = [row.get_by_role("rowheader", name=name), row.get_by_role("cell").nth(1), row.get_by_role("cell").nth(2)]
    for cell, text in zip(cells, (name, wins, points), strict=True):
        expect(cell).to_have_text(text)
    return cells


LONG = "Bartholomew Fairbank-Whitfield"  # A long name, in a column of its own that must not push the points away.


def test_standings_fit_the_phone(scorer_page: Page, league, size):
    page = scorer_page
    leagues.build(league)
    services.rename_player(player=Player.objects.get(league=league, name="Dan"), name=LONG)
    page.reload()
    standings = page.get_by_role("region", name="Standings")
    expect(standings.get_by_role("row", name=re.compile(r"^Ann "))).to_be_visible()
    no_sideways_scroll(page)
    expect(page.get_by_text("Tap a column to sort; slide the table sideways for the other columns.")).to_be_visible()
    header = [standings.get_by_role("columnheader", name=name, exact=True) for name in ("Player", "W", "Pts ▼")]
    ann = standings.get_by_role("row", name=re.compile(r"^Ann "))
    long = standings.get_by_role("row", name=re.compile(f"^{LONG} "))
    cells = [*name_wins_points(ann, "Ann", "1", "8"), *name_wins_points(long, LONG, "1", "7")]
    long.scroll_into_view_if_needed()  # Down the page; the table itself has not slid (checked below).
    for part in header + cells:
        expect(part).to_be_visible()
        assert fully_in_view_sideways(page, part), part
    assert standings.evaluate("box => box.scrollLeft") == 0
    page.screenshot(path=f"/tmp/standings-{size[0]}x{size[1]}.png", full_page=True)

    # The other columns: the table slides sideways, the names staying where they are.
    rating = standings.get_by_role("columnheader", name="Rating", exact=True)
    assert not fully_in_view_sideways(page, rating)
    rating.scroll_into_view_if_needed()
    assert fully_in_view_sideways(page, rating)
    assert fully_in_view_sideways(page, ann.get_by_role("rowheader", name="Ann"))
    no_sideways_scroll(page)


def test_latest_games_show_the_final_scores_and_the_winner(scorer_page: Page, league, size):
    page = scorer_page
    leagues.build(league)
    page.reload()
    solo = page.get_by_role("link", name=re.compile("^Jan. 10, 2026"))
    expect(solo).to_contain_text("Ann won")
    expect(solo).to_contain_text("Ann 7 · Bob -2 · Cat 3")
    partnership = page.get_by_role("link", name=re.compile("^Feb. 1, 2026 · partnership"))
    expect(partnership).to_contain_text("Them won")
    expect(partnership).to_contain_text("Us 1 · Them 7")
    expect(partnership).to_contain_text("Ann, Bob, Cat, Dan")
    expect(page.get_by_role("link", name=re.compile("^Feb. 2, 2026"))).to_contain_text("In progress")
    expect(page.get_by_text(re.compile(r"\d+/\d+/\d{4}"))).to_have_count(0)  # One way of writing a date.
    no_sideways_scroll(page)

    page.get_by_role("link", name="Ann", exact=True).click()
    expect(page.get_by_role("heading", name="Ann")).to_be_visible()
    games = page.get_by_role("region", name="Games")
    expect(games.get_by_role("link", name="Jan. 10, 2026")).to_be_visible()
    games.scroll_into_view_if_needed()
    assert fully_in_view_sideways(page, games)  # The table slides inside it when it is wider than the phone.
    assert fully_in_view_sideways(page, games.get_by_role("link", name="Jan. 10, 2026"))
    no_sideways_scroll(page)
    page.screenshot(path=f"/tmp/player-{size[0]}x{size[1]}.png", full_page=True)
