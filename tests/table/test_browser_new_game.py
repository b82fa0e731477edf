"""The new-game page and the league's settings on a phone, in Chromium: the rules adapt to the variant picked, the
house rules read in full at 320 px, the summary says what was chosen, and all of it works without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from scores.engine import rules
from scores.leagues.models import League, Role
from scores.people import services
from scores.table.models import Game
from tests.conftest import PASSWORD, until_routed
from tests.phone import phone_fixtures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


size, browser_context_args = phone_fixtures()


def tap(page: Page, group: str, label: str) -> None:
    page.get_by_role("group", name=group, exact=True).get_by_text(label, exact=True).click()


def new_game(page: Page, live_server, league: League) -> Page:
    page.goto(live_server.url + reverse("scores:game_new", args=[league.slug]))
    return page


def expect_min_bids(page: Page, bids: list[str]) -> None:
    """The minimum bids shown, waited on: the page hides those above the points' total."""
    group = page.get_by_role("group", name="Minimum bid", exact=True)
    expect(group.locator("label").filter(visible=True)).to_have_text(bids)


def test_the_house_rules_read_in_full_and_fit_the_phone(scorer_page: Page, live_server, league, size):
    page = new_game(scorer_page, live_server, league)
    page.get_by_text("House rules").click()
    for choice in (
        "A set pitcher at the target still goes out",
        "The pitcher goes out only by making the bid",
        "Not allowed: a set stops at 0",
    ):
        expect(page.get_by_text(choice, exact=True)).to_be_visible()
    cut = page.evaluate(
        """() => [...document.querySelectorAll(".house-rules .tap")].filter((label) => {
            const text = label.querySelector(".tap-text");
            return text.scrollWidth > text.clientWidth + 1 || label.getBoundingClientRect().right > innerWidth;
        }).map((label) => label.textContent.trim())"""
    )
    assert cut == []
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


def test_the_rules_adapt_to_the_variant_and_the_summary_says_what_was_chosen(scorer_page: Page, live_server, league, size):
    page = new_game(scorer_page, live_server, league)
    page.get_by_text("House rules").click()
    line = page.locator(".rules-line")
    expect(line).to_have_text("4-point · to 7")
    expect_min_bids(page, ["Usual", "1", "2", "3", "4"])
    expect(page.get_by_text("High, Low, Jack, Game (4 points in a hand). Usually to 7; the lowest bid is 1.")).to_be_visible()

    tap(page, "Variant", "10-point")
    expect(line).to_have_text("10-point · to 52")  # The variant's usual target.
    ten = "Ace, Jack, Off-jack, Big joker, Little joker, Ten, Three (3), Two (10 points in a hand)."
    expect(page.get_by_text(ten, exact=False)).to_be_visible()
    expect(page.get_by_text("High, Low, Jack, Game (4 points in a hand).", exact=False)).to_be_hidden()
    expect_min_bids(page, ["Usual", *map(str, range(1, 11))])
    tap(page, "Play to", "21")
    expect(line).to_have_text("10-point · to 21")  # The target picked, not the league's.
    tap(page, "Minimum bid", "6")
    tap(page, "Negative scores", "Not allowed: a set stops at 0")
    expect(line).to_have_text("10-point · to 21 · minimum bid 6 · no negative scores")

    # A custom game: the points ticked, their total, the minimum bids up to it; a minimum above it falls back to usual.
    tap(page, "Variant", "Custom")
    points = page.get_by_role("group", name="Points in a custom game")
    expect(points).to_be_visible()
    expect(points.locator("output")).to_have_text("4")  # The league's 4-point game's points to start from.
    expect(page.get_by_role("group", name="Minimum bid", exact=True).get_by_role("radio", name="Usual")).to_be_checked()
    expect_min_bids(page, ["Usual", "1", "2", "3", "4"])
    points.get_by_text("Five (5)", exact=True).click()
    points.get_by_text("Jack", exact=True).click()
    expect(points.locator("output")).to_have_text("8")
    expect_min_bids(page, ["Usual", *map(str, range(1, 9))])
    expect(line).to_have_text("Custom: High, Low, Five (5), Game · to 21 · no negative scores")

    for i, name in enumerate(["Ann", "Bob", "Cat"], start=1):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#house-rules")).to_have_text("Custom: High, Low, Five (5), Game · to 21 · no negative scores")
    assert Game.objects.get().rules == rules.Rules(variant="custom", points=("high", "low", "five", "game"), target=21, negative=False)


def test_a_change_while_the_summary_is_being_asked_for_waits_its_turn(scorer_page: Page, live_server, league, size):
    # The first answer is held until a second change is made: the second question must wait for it, not abort it
    # (htmx reports an aborted request as a console error, which fails this test).
    page = new_game(scorer_page, live_server, league)
    page.get_by_text("House rules").click()
    held = []
    page.route("**/games/new/?part=rules*", lambda route: route.continue_() if held else held.append(route))
    with page.expect_request("**/games/new/?part=rules*"):
        tap(page, "Play to", "21")
    tap(page, "Minimum bid", "3")
    until_routed(page, held)
    held[0].continue_()
    expect(page.locator(".rules-line")).to_have_text("4-point · to 21 · minimum bid 3")


def test_six_players_sit_as_three_teams_of_two_or_two_teams_of_three(scorer_page: Page, live_server, league, size):
    page = new_game(scorer_page, live_server, league)
    page.get_by_text("More new players").click()
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], start=1):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    seating = page.get_by_role("region", name="Seating").get_by_role("listitem")
    tap(page, "Play", "3 teams of 2")
    for i, team in enumerate(["Red", "Blue", "Gold"], start=1):
        page.get_by_label(f"Name of team {i}").fill(team)
    expect(seating).to_have_text(
        [
            "Seat 1: Ann (Red), deals first",
            "Seat 2: Bob (Blue)",
            "Seat 3: Cat (Gold)",
            "Seat 4: Dan (Red)",
            "Seat 5: Eve (Blue)",
            "Seat 6: Fay (Gold)",
        ]
    )
    tap(page, "Play", "2 teams of 3")
    expect(page.get_by_label("Name of team 3")).to_be_hidden()
    expect(seating).to_have_text(
        [
            "Seat 1: Ann (Red), deals first",
            "Seat 2: Bob (Blue)",
            "Seat 3: Cat (Red)",
            "Seat 4: Dan (Blue)",
            "Seat 5: Eve (Red)",
            "Seat 6: Fay (Blue)",
        ]
    )
    page.get_by_label("Who deals first").select_option(label="Seat 2")
    expect(seating.first).to_have_text("Seat 1: Ann (Red)")
    expect(seating.nth(1)).to_have_text("Seat 2: Bob (Blue), deals first")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    game = Game.objects.get()
    teams = {side.name: sorted(game.seats.filter(side=side).values_list("player__name", flat=True)) for side in game.sides.all()}
    assert teams == {"Red": ["Ann", "Cat", "Eve"], "Blue": ["Bob", "Dan", "Fay"]}
    assert game.seats.get(position=0).player.name == "Bob"  # Bob deals first: the table turned, partners kept.


def test_without_javascript_a_variant_its_rules_and_three_teams_start_a_game(live_server, browser: Browser, make_user, league, size):
    make_user("sam", league, Role.SCORER)
    page = browser.new_context(java_script_enabled=False, viewport={"width": size[0], "height": size[1]}).new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    new_game(page, live_server, league)
    # Everything is there: each variant's points, the custom points, every minimum bid, the third team's name.
    expect(page.get_by_text(re.compile(r"^13-point:"))).to_be_visible()
    expect(page.get_by_role("group", name="Points in a custom game")).to_be_visible()
    expect(page.get_by_label("Name of team 3")).to_be_visible()
    page.get_by_text("House rules").click()
    expect(page.get_by_role("group", name="Minimum bid", exact=True).get_by_text("23", exact=True)).to_be_visible()
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    tap(page, "Variant", "7-point")
    tap(page, "Play", "2 teams of 2")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    expect(page.locator("#house-rules")).to_have_text("7-point · to 21")  # Usual: the 7-point game's target and bids.
    assert Game.objects.get().rules == rules.Rules(variant="7-point")
    page.context.close()


def test_the_league_keeps_its_usual_variant_and_new_games_start_with_it(live_server, page: Page, make_user, league, size):
    make_user("olive", league, Role.OWNER)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + reverse("scores:league_settings", args=[league.slug]))
    tap(page, "Variant", "5-point")
    expect_min_bids(page, ["Usual", "1", "2", "3", "4", "5"])
    tap(page, "Negative scores", "Not allowed: a set stops at 0")
    page.get_by_role("button", name="Save house rules").click()
    expect(page.get_by_text("House rules saved: new games start with them.")).to_be_visible()
    league.refresh_from_db()
    assert league.rules == rules.Rules(variant="5-point", negative=False)
    new_game(page, live_server, league)
    expect(page.get_by_role("group", name="Variant").get_by_role("radio", name="5-point")).to_be_checked()
    expect(page.locator(".rules-line")).to_have_text("5-point · to 11 · no negative scores")


def test_an_archived_player_is_not_offered_in_the_list_nor_by_typing(live_server, page: Page, make_user, league, size):
    for name in ("Fay", "Gus"):
        services.add_guest(league=league, name=name)
    make_user("olive", league, Role.OWNER)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + reverse("scores:people", args=[league.slug]))
    page.get_by_role("button", name="Archive Fay").click()
    expect(page.get_by_text("Fay is archived: new games and card nights no longer offer them.")).to_be_visible()

    page = new_game(page, live_server, league)
    expect(page.get_by_role("checkbox", name="Gus", exact=True)).to_have_count(1)
    expect(page.get_by_role("checkbox", name="Fay", exact=True)).to_have_count(0)
    finder = page.get_by_role("combobox", name="Find a league player")
    finder.fill("Fay")
    finder.press("Enter")  # No one by that name to pick: the box keeps what was typed.
    expect(finder).to_have_value("Fay")
    expect(page.get_by_text("Nobody is seated yet.")).to_be_visible()
    expect(page.locator("#league-players option")).to_have_count(1)  # The suggestions typing offers: Gus alone.
    finder.fill("Gus")
    finder.press("Enter")
    expect(page.get_by_label("Seat for Gus")).to_have_value("1")
    expect(finder).to_have_value("")
