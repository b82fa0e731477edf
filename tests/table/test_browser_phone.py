"""The phone at the table: a hand on one screen, the save seen, any name, installed, in Chromium.

Each test is run at the phone sizes the issue names; sizes are compared with the device's width, not
``window.innerWidth`` (Chromium widens that to fit an over-wide page).
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import OperationalError
from playwright.sync_api import Browser, Page, expect

from scores.engine import rules
from scores.leagues.models import Player, Role
from scores.table import services
from scores.table.models import Game, Hand
from tests.conftest import PASSWORD, hand
from tests.phone import phone_fixtures
from tests.table.test_answers_after_a_write import database_stops_after
from tests.table.test_hand_corrections import stored

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]
# Ordinary long names, twenty characters, and one of the longest allowed (40) without a space.
LONG = ["Christopher Robinson", "Alexandria Whitfield", "Maximiliano Quintero", "Bartholomew Fairbank",
        "Christopher Robinsen", "Gwendolyn Montgomery", "X" * 40]  # fmt: skip


size, browser_context_args = phone_fixtures(service_workers=True)


def open_game(page: Page, live_server, league, names: list[str], **kwargs) -> Game:
    game = services.start_game(league=league, seats=names, **kwargs, rules=rules.Rules())
    page.goto(live_server.url + game.get_absolute_url())
    return game


def tap(page: Page, group: str, label: str) -> None:
    # The button a thumb taps: its title is the whole name even when the screen shows it cut short.
    page.get_by_role("group", name=group, exact=True).get_by_title(label, exact=True).click()


def enter_hand(page: Page, pitcher: str, bid: int, high: str, low: str, jack: str = "Not in play", game: str = "Tied") -> None:
    for group, label in (("Pitcher", pitcher), ("Bid", str(bid)), ("High", high), ("Low", low), ("Jack", jack), ("Game", game)):
        tap(page, group, label)


def page_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def in_first_viewport(page: Page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_whole_hand_form_is_in_the_first_viewport_with_five_players(scorer_page: Page, live_server, league, size):
    page = scorer_page
    open_game(page, live_server, league, FIVE)
    assert page.evaluate("window.scrollY") == 0
    scoreboard = page.locator(".scoreboard")
    groups = [page.get_by_role("group", name=name, exact=True) for name in ("Pitcher", "Bid", "High", "Low", "Jack", "Game")]
    parts = [scoreboard, *groups, page.get_by_role("button", name="Save hand")]
    if size == (390, 844):  # The promise: no scrolling at all on this phone.
        assert all(in_first_viewport(page, part) for part in parts)
        expect(page.get_by_text("Not in play", exact=True)).to_be_in_viewport()
        expect(page.get_by_text("Tied", exact=True)).to_be_in_viewport()
    else:  # The smallest phone: the scoreboard and the first choices without a scroll, the rest within one more screen.
        assert in_first_viewport(page, scoreboard) and in_first_viewport(page, groups[0])
        save = page.get_by_role("button", name="Save hand").bounding_box()
        assert save["y"] + save["height"] <= 2 * size[1]
    assert page_width(page) <= size[0]


def test_the_scoreboard_stays_in_view_while_the_form_is_used(scorer_page: Page, live_server, league, size):
    page = scorer_page
    open_game(page, live_server, league, LONG)
    page.get_by_role("button", name="Save hand").scroll_into_view_if_needed()
    expect(page.locator(".scoreboard")).to_be_in_viewport()


@pytest.mark.parametrize("names", [LONG, [*LONG[:6], "Y" * 20]], ids=["longest", "seven-of-twenty"])
def test_long_names_never_widen_the_page(scorer_page: Page, live_server, league, size, names):
    page = scorer_page
    game = open_game(page, live_server, league, names)
    assert page_width(page) <= size[0]
    # The full name is the button's accessible name and its title, even when the screen shows it cut short.
    longest = page.get_by_role("group", name="Pitcher", exact=True).get_by_role("radio", name=names[-1], exact=True)
    expect(longest).to_have_count(1)
    expect(page.locator(f'label[title="{names[-1]}"]').first).to_be_attached()
    expect(page.get_by_role("rowheader", name=names[-1])).to_have_attribute("title", names[-1])
    enter_hand(page, names[-1], 2, names[-1], names[0], game=names[-1])
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".result-line")).to_contain_text("Hand 1:")
    assert page_width(page) <= size[0]  # The history's row and columns too.
    expect(page.get_by_role("button", name="Save hand")).to_be_visible()
    for url in (game.get_absolute_url(), league.get_absolute_url(), f"/leagues/{league.slug}/games/"):
        page.goto(live_server.url + url)
        assert page_width(page) <= size[0], url


def test_after_a_save_the_saved_line_and_the_changed_totals_are_in_view(scorer_page: Page, live_server, league, size):
    page = scorer_page
    open_game(page, live_server, league, FIVE)
    for number, pitcher in ((1, "Bob"), (2, "Cat")):  # The first hand brings the whole part back; later ones only the scores.
        enter_hand(page, pitcher, 2, pitcher, pitcher, game="Ann")
        page.get_by_role("button", name="Save hand").scroll_into_view_if_needed()
        page.get_by_role("button", name="Save hand").click()
        line = page.locator(".result-line")
        expect(line).to_have_text(f"Hand {number}: {pitcher} made 2, +2")
        expect(line).to_be_in_viewport()
        expect(line).to_have_attribute("aria-live", "polite")
        changed = page.locator(".scoreboard tr.changed")
        expect(changed).to_have_count(2)  # The pitcher's +2 and Ann's +1.
        for row in changed.all():
            # Its box inside the viewport (to_be_in_viewport's IntersectionObserver answered 0 for a sticky row at times).
            page.wait_for_function(
                "row => { const box = row.getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight; }",
                arg=row.element_handle(),
                timeout=5000,
            )
        expect(changed.filter(has=page.get_by_role("rowheader", name="Ann")).locator(".delta")).to_have_text("+1")
        expect(page.locator("#hand input[type=radio]:checked")).to_have_count(0)  # Clear for the next hand.


def test_a_refused_save_brings_its_first_error_into_view_and_focus(scorer_page: Page, live_server, league, size):
    page = scorer_page
    open_game(page, live_server, league, FIVE)
    tap(page, "Pitcher", "Bob")
    tap(page, "Bid", "2")
    page.get_by_role("button", name="Save hand").click()
    problem = page.locator("#hand .is-invalid").first
    expect(problem).to_be_focused()
    expect(problem).to_be_in_viewport()
    expect(problem).to_contain_text("Tap who won High.")


def test_a_hand_another_phone_saved_first_is_said_in_view(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = open_game(page, live_server, league, FIVE)
    services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"), number=1)
    enter_hand(page, "Cat", 2, "Cat", "Cat")
    page.get_by_role("button", name="Save hand").click()
    notice = page.locator("#scoreboard .notice")
    expect(notice).to_be_focused()
    expect(notice).to_be_in_viewport()


def test_negative_totals_are_red_on_the_scoreboard(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = open_game(page, live_server, league, FIVE)
    services.record_hand(game=game, hand=hand("Bob", 3, "Ann", "Ann"), number=1)
    page.reload()
    total = page.locator(".scoreboard tr", has=page.get_by_role("rowheader", name="Bob")).locator(".total")
    expect(total).to_have_text("-3")
    expect(total).to_have_css("color", "rgb(176, 42, 55)")


def test_the_auction_in_place_with_only_legal_bids_saved_with_the_hand(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = open_game(page, live_server, league, ["Ann", "Bob", "Cat", "Dan"])
    page.evaluate("window.samePage = true")  # Gone if the page were loaded again.
    page.get_by_role("link", name="Enter the auction").click()
    bids = page.get_by_role("navigation", name="Bob bids")
    for bidder in ("Bob", "Cat", "Dan"):
        page.get_by_role("navigation", name=f"{bidder} bids").get_by_role("link", name="Pass", exact=True).click()
    stuck = page.get_by_role("navigation", name="Ann bids")
    expect(stuck).to_contain_text("Everyone passed: the dealer must bid at least 2.")
    expect(stuck.get_by_role("link")).to_have_text(["2", "3", "4"])  # Only the legal bids.
    page.get_by_role("link", name="Undo last bid").click()
    page.get_by_role("navigation", name="Dan bids").get_by_role("link", name="3", exact=True).click()
    page.get_by_role("navigation", name="Ann bids").get_by_role("link", name="3", exact=True).click()  # The dealer steals.
    expect(page.get_by_text("Ann is the pitcher with a bid of 3.")).to_be_visible()
    expect(bids).to_have_count(0)
    expect(page.get_by_role("radio", name="Ann").first).to_be_checked()
    for group, label in (("High", "Ann"), ("Low", "Ann"), ("Jack", "Ann"), ("Game", "Tied")):
        tap(page, group, label)
    with page.expect_request("**/hands/") as posted:
        page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".result-line")).to_contain_text("Ann made 3, +3")
    assert "auction=p%2Cp%2C3%2C3" in (posted.value.post_data or "")
    assert page.evaluate("window.samePage") is True
    assert Hand.objects.get(game=game).auction == [[1, None], [2, None], [3, 3], [0, 3]]


def test_enter_the_auction_looks_like_a_button_that_works(scorer_page: Page, live_server, league, size):
    page = scorer_page
    open_game(page, live_server, league, FIVE)
    link = page.get_by_role("link", name="Enter the auction")
    expect(link).to_have_css("color", "rgb(25, 135, 84)")  # The app's green, not Bootstrap's grey.


def test_tap_targets_are_at_least_44_px(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = open_game(page, live_server, league, FIVE)
    services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"), number=1)
    small = []
    for url in (game.get_absolute_url(), league.get_absolute_url(), f"/leagues/{league.slug}/games/"):
        page.goto(live_server.url + url)
        small += page.evaluate(
            """() => [...document.querySelectorAll("a, button, summary, label.tap, input:not([type=hidden]):not(.btn-check), select")]
                .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
                .map((el) => [el, el.getBoundingClientRect()])
                .filter(([, box]) => box.width < 44 || box.height < 44)
                .map(([el, box]) => [location.pathname, el.tagName, (el.textContent || el.name).trim().slice(0, 30),
                                     `${Math.round(box.width)}x${Math.round(box.height)}`].join(" "))"""
        )
    assert small == [], "\n".join(small)


def test_the_header_is_one_line_and_one_tap_changes_the_language(scorer_page: Page, live_server, league, size):
    page = scorer_page
    open_game(page, live_server, league, FIVE)
    header = page.get_by_role("navigation").first.bounding_box()
    assert header["height"] <= 60
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("button", name="Italiano").click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.get_by_role("button", name="Save hand")).to_have_count(0)  # In Italian now.


def test_the_manifest_is_valid_and_the_service_worker_registers(scorer_page: Page, live_server, league, size):
    page = scorer_page
    open_game(page, live_server, league, FIVE)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(live_server.url + href)
    assert response.ok and response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text())
    assert manifest["name"] == "Pitch League" and manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] == page.locator("meta[name=theme-color]").get_attribute("content")
    sizes = set()
    for icon in manifest["icons"]:
        image = page.request.get(live_server.url + icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    # Bounded, so a worker that fails to install fails the test instead of hanging it.
    scope = page.evaluate(
        """Promise.race([navigator.serviceWorker.ready.then((registration) => registration.scope),
                         new Promise((resolve) => setTimeout(() => resolve("not ready after 15 s"), 15000))])"""
    )
    assert scope == live_server.url + "/"
    cached = page.evaluate("caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys()))))")
    assert cached and len(cached[0]) >= 5  # The static files every page loads.


def test_after_a_win_the_winner_is_highlighted_and_rematch_deals_on(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = open_game(page, live_server, league, ["Ann", "Bob", "Cat"])
    # Ann passes the target without pitching; Cat goes out with fewer points.
    for number in (1, 2, 3):
        services.record_hand(game=game, hand=hand("Bob", 1, "Ann", "Ann", jack="Ann", game="Cat"), number=number)
    page.reload()
    enter_hand(page, "Cat", 4, "Cat", "Cat", jack="Cat", game="Cat")
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("status")).to_contain_text("Cat won!")
    leaders = page.locator(".scoreboard tr.leader")
    expect(leaders).to_have_count(1)
    expect(leaders.get_by_role("rowheader")).to_have_attribute("title", "Cat")
    expect(page.locator(".scoreboard").get_by_text("leads")).to_have_count(1)
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert rematch.target == game.target
    # The last hand was dealt by Ann (hands 1-4: Ann, Bob, Cat, Ann): Bob deals first now, the others in their seats.
    expect(page.get_by_text("Bob deals, Cat bids first")).to_be_visible()
    assert list(rematch.seats.order_by("position").values_list("player__name", flat=True)) == ["Bob", "Cat", "Ann"]


def test_the_watch_link_has_a_qr_code_and_a_copy_button(scorer_page: Page, live_server, league, size, browser: Browser):
    page = scorer_page
    game = open_game(page, live_server, league, FIVE)
    qr = page.get_by_role("img", name="QR code of the watch link")
    expect(qr).to_be_visible()
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 100", qr.element_handle())
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == f"{live_server.url}/watch/{game.share_token}/"


def test_undo_takes_effect_at_once_and_offers_restore_for_ten_seconds(scorer_page: Page, live_server, league, size):
    page = scorer_page
    page.clock.install()  # Time runs as usual; fast_forward below skips the ten seconds.
    game = services.start_game(league=league, seats=FIVE, rules=rules.Rules())
    for number, pitcher in ((1, "Bob"), (2, "Cat")):
        made = hand(pitcher, 2, pitcher, "Ann", jack="Ann", game=pitcher)
        services.record_hand(game=game, hand=made, number=number)
    before = stored(game)
    page.goto(live_server.url + game.get_absolute_url())
    page.evaluate("window.samePage = true")
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.locator("#scoreboard .notice")).to_have_text("Hand 2 was undone.")
    assert len(stored(game)) == 1  # At once: no question first.
    restore = page.get_by_role("button", name="Restore")
    expect(restore).to_be_in_viewport()
    box = restore.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    restore.click()
    expect(page.locator("#scoreboard .notice")).to_have_text("Hand 2 was restored.")
    expect(page.locator(".result-line")).to_have_text("Hand 2: Cat made 2, +2")
    expect(page.get_by_role("button", name="Restore")).to_have_count(0)
    assert stored(game) == before and page.evaluate("window.samePage") is True
    assert page_width(page) <= size[0]
    # Undone again, and left: after ten seconds the offer is gone and the undo stays.
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_role("button", name="Restore")).to_be_visible()
    expect(page.locator("#restore[data-timed]")).to_have_count(1)  # Its ten seconds started (app.js, once htmx settled).
    page.clock.fast_forward(9_000)
    expect(page.get_by_role("button", name="Restore")).to_be_visible()
    page.clock.fast_forward(1_500)
    expect(page.get_by_role("button", name="Restore")).to_have_count(0)
    expect(page.locator("#scoreboard .notice")).to_have_text("Hand 2 was undone.")
    assert len(stored(game)) == 1


def test_restore_after_a_new_hand_is_gone_and_a_stale_one_is_refused_in_words(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = open_game(page, live_server, league, FIVE)
    services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"), number=1)
    page.reload()
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_role("button", name="Restore")).to_be_visible()
    services.record_hand(game=game, hand=hand("Cat", 2, "Cat", "Cat"), number=1)  # Another phone.
    page.get_by_role("button", name="Restore").click()
    notice = page.locator("#scoreboard .notice")
    expect(notice).to_have_text("Hand 1 was saved meanwhile, so nothing was restored.")
    expect(notice).to_be_focused()
    assert list(Hand.objects.filter(game=game).values_list("pitcher__player__name", flat=True)) == ["Cat"]
    # A hand saved on this phone takes the undone one's place: no Restore left to tap.
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_role("button", name="Restore")).to_be_visible()
    enter_hand(page, "Dan", 2, "Dan", "Dan")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".result-line")).to_contain_text("Hand 1: Dan made 2")
    expect(page.get_by_role("button", name="Restore")).to_have_count(0)


STALE = "The server could not show the game as it stands just now. Reload the page"


def test_an_undo_stored_as_the_database_stops_is_said_with_restore_and_a_reload(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = services.start_game(league=league, seats=FIVE, rules=rules.Rules())
    for number, pitcher in ((1, "Bob"), (2, "Cat")):
        services.record_hand(game=game, hand=hand(pitcher, 2, pitcher, pitcher), number=number)
    before = stored(game)
    page.goto(live_server.url + game.get_absolute_url())
    notice = page.locator("#scoreboard .notice")
    with database_stops_after("undo_hand", OperationalError):  # The undo is stored; then the database restarts.
        page.get_by_role("button", name="Undo last hand").click()
        expect(notice).to_have_text(f"Hand 2 was undone. {STALE}")
    expect(notice).to_be_focused()
    expect(page.get_by_role("link", name="Reload the page")).to_have_attribute("href", game.get_absolute_url())
    assert len(stored(game)) == 1
    page.get_by_role("button", name="Restore").click()  # The database is back.
    expect(notice).to_have_text("Hand 2 was restored.")
    expect(page.locator(".result-line")).to_have_text("Hand 2: Cat made 2, +2")
    assert stored(game) == before


def test_a_first_hand_stored_as_the_database_stops_is_said_and_the_reload_shows_it(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = open_game(page, live_server, league, FIVE)
    enter_hand(page, "Bob", 2, "Bob", "Bob")
    notice = page.locator("#scoreboard .notice")
    with database_stops_after("record_hand", OperationalError):
        page.get_by_role("button", name="Save hand").click()
        expect(notice).to_have_text(f"Hand 1 was saved. {STALE}")
    assert list(Hand.objects.filter(game=game).values_list("pitcher__player__name", flat=True)) == ["Bob"]
    page.get_by_role("link", name="Reload the page").click()
    expect(page.locator(".result-line")).to_have_text("Hand 1: Bob made 2, +2")
    expect(page.get_by_text("Hand 2", exact=True)).to_be_visible()


def test_without_javascript_restore_stays_until_the_game_changes(live_server, browser: Browser, make_user, league, size):
    make_user("sam", league, Role.SCORER)
    game = services.start_game(league=league, seats=FIVE, rules=rules.Rules())
    bids = (("Bob", None), ("Cat", 2), ("Dan", None), ("Eve", 3), ("Ann", None))
    made = hand("Eve", 3, "Eve", "Eve", jack="Ann", game="Eve", bids=bids)
    services.record_hand(game=game, hand=made, number=1)
    before = stored(game)
    page = page_without_javascript(browser, live_server, size)
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_text("Hand 1 was undone.")).to_be_visible()
    assert stored(game) == []
    restore = page.get_by_role("button", name="Restore")
    expect(restore).to_be_in_viewport()
    page.reload()  # Still there: nothing was saved since.
    page.get_by_role("button", name="Restore").click()
    expect(page.get_by_text("Hand 1 was restored.")).to_be_visible()
    expect(page.get_by_role("button", name="Restore")).to_have_count(0)
    assert stored(game) == before
    assert page_width(page) <= size[0]
    page.context.close()


def test_the_history_shows_short_names_with_the_whole_name_for_screen_readers(scorer_page: Page, live_server, league, size):
    page = scorer_page
    # Two share a first name (an initial tells them apart); the others keep their first name; the longest stays whole.
    names = ["Christopher Robinson", "Christopher Whitfield", "Maximiliano Quintero", "Bartholomew Fairbank", "X" * 40]
    open_game(page, live_server, league, names)
    whitfield = "Christopher Whitfield"
    enter_hand(page, whitfield, 2, whitfield, "Maximiliano Quintero", jack=whitfield, game="Christopher Robinson")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".result-line")).to_contain_text("Hand 1:")
    row = page.locator("#history-body tr").first
    expect(row.get_by_text("Christopher W.", exact=True).first).to_be_visible()
    expect(row.get_by_title("Christopher Whitfield").first).to_have_text("Christopher W.")
    expect(row.get_by_text("Maximiliano", exact=True)).to_be_visible()
    # Read out whole: the short forms are hidden from screen readers, the whole names are there for them.
    whole = re.compile(r"^Christopher Whitfield bid 2 dealt by Christopher Robinson ")
    expect(row.get_by_role("cell").nth(1)).to_have_accessible_name(whole)
    header = page.get_by_role("columnheader", name="Bartholomew Fairbank")
    expect(header).to_have_text("BartholomewBartholomew Fairbank")  # The short form, and the whole name visually hidden.
    expect(header.get_by_title("Bartholomew Fairbank")).to_be_visible()
    assert page_width(page) <= size[0]


def new_game_page(page: Page, live_server, league) -> Page:
    page.goto(live_server.url + f"/leagues/{league.slug}/games/new/")
    return page


def test_new_game_shows_team_fields_for_teams_and_other_target_when_picked(scorer_page: Page, live_server, league, size):
    page = new_game_page(scorer_page, live_server, league)
    team1, other = page.get_by_label("Name of team 1"), page.get_by_label("Other target")
    expect(team1).to_be_hidden()
    expect(other).to_be_hidden()
    page.get_by_role("group", name="Play", exact=True).get_by_text("2 teams of 2", exact=True).click()
    expect(team1).to_be_visible()
    expect(page.get_by_label("Name of team 2")).to_be_visible()
    expect(page.get_by_label("Name of team 3")).to_be_hidden()  # Three teams only.
    page.get_by_role("group", name="Play to").get_by_text("Other", exact=True).click()
    expect(other).to_be_visible()
    expect(other).to_be_focused()  # The next thing to fill in.
    other.fill("9")
    team1.fill("Hearts")
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    assert page_width(page) <= size[0]
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    game = Game.objects.get()
    assert game.partnership and game.target == 9
    assert sorted(game.sides.values_list("name", flat=True)) == ["Hearts", "Team 2"]


def test_a_field_hidden_again_is_not_sent(scorer_page: Page, live_server, league, size):
    page = new_game_page(scorer_page, live_server, league)
    page.get_by_role("group", name="Play to").get_by_text("Other", exact=True).click()
    page.get_by_label("Other target").fill("500")  # Out of range, then another target picked: it no longer counts.
    page.get_by_role("group", name="Play to").get_by_text("11", exact=True).click()
    expect(page.get_by_label("Other target")).to_be_hidden()
    page.get_by_role("group", name="Play", exact=True).get_by_text("2 teams of 2", exact=True).click()
    page.get_by_label("Name of team 1").fill("Hearts")
    page.get_by_role("group", name="Play", exact=True).get_by_text("Solo", exact=True).click()
    expect(page.get_by_label("Name of team 1")).to_be_hidden()
    for i, name in enumerate(["Ann", "Bob", "Cat"], start=1):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    with page.expect_request("**/games/new/") as posted:
        page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    assert "other_target" not in posted.value.post_data and "Hearts" not in posted.value.post_data
    game = Game.objects.get()
    assert game.target == 11 and not game.partnership


def test_league_players_are_picked_by_typing(scorer_page: Page, live_server, league, size):
    names = ["Christopher Robinson", "Christina Álvarez", "Bartholomew Fairbank", "Ann", "Anna", "Zed"]
    for name in names:
        Player.objects.create(league=league, name=name)
    page = new_game_page(scorer_page, live_server, league)
    finder = page.get_by_role("combobox", name="Find a league player")
    rows = page.locator(".league-player")
    finder.fill("chris")
    expect(rows.filter(visible=True)).to_have_count(2)
    finder.fill("christina alv")  # Without case or accents.
    expect(rows.filter(visible=True)).to_have_count(1)
    finder.press("Enter")  # The only one left: picked, and the box clears for the next.
    expect(page.get_by_label("Seat for Christina Álvarez")).to_have_value("1")
    expect(finder).to_have_value("")
    expect(rows.filter(visible=True)).to_have_count(len(names))
    finder.fill("Ann")  # Ann and Anna: the whole name picks Ann.
    expect(rows.filter(visible=True)).to_have_count(3)  # Ann, Anna, and Christina, who is picked and stays in view.
    finder.press("Enter")
    expect(page.get_by_label("Seat for Ann", exact=True)).to_have_value("2")
    expect(page.get_by_label("Seat for Anna")).to_have_value("")
    finder.fill("bart")
    finder.press("Enter")
    expect(page.get_by_label("Seat for Bartholomew Fairbank")).to_have_value("3")
    for target in (finder, page.get_by_role("button", name="Start game")):
        box = target.bounding_box()
        assert box["height"] >= 44
    assert page_width(page) <= size[0]
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    game = Game.objects.get()
    assert list(game.seats.order_by("position").values_list("player__name", flat=True)) == [
        "Christina Álvarez", "Ann", "Bartholomew Fairbank"
    ]  # fmt: skip


def test_without_javascript_the_new_game_form_shows_every_field(live_server, browser: Browser, make_user, league, size):
    make_user("sam", league, Role.SCORER)
    Player.objects.create(league=league, name="Ann")
    page = page_without_javascript(browser, live_server, size)
    new_game_page(page, live_server, league)
    expect(page.get_by_label("Name of team 1")).to_be_visible()
    expect(page.get_by_label("Other target")).to_be_visible()
    expect(page.get_by_label("Find a league player")).to_have_count(1)
    expect(page.get_by_label("Find a league player")).to_be_hidden()  # Nothing to type into without it.
    page.get_by_text("Ann", exact=True).click()
    page.get_by_label("New player 1", exact=True).fill("Bob")
    page.get_by_role("group", name="Play to").get_by_text("Other", exact=True).click()
    page.get_by_label("Other target").fill("9")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    assert Game.objects.get().target == 9
    page.context.close()


def page_without_javascript(browser: Browser, live_server, size) -> Page:
    """A phone-sized page with JavaScript off, logged in as the scorer sam."""
    page = browser.new_context(java_script_enabled=False, viewport={"width": size[0], "height": size[1]}).new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page
