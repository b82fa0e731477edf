"""Phone-sized Chromium drives the scoring pages by their visible labels, start to winner."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from scores.leagues.models import Player, Role
from scores.table.models import Game, Hand
from tests.conftest import PASSWORD, until_routed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start_game(page: Page, names: list[str], target: str = "7") -> None:
    page.get_by_role("link", name="New game").click()
    for i, name in enumerate(names, start=1):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    page.get_by_role("group", name="Play to").get_by_text(target, exact=True).click()
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()


def tap(page: Page, group: str, label: str) -> None:
    page.get_by_role("group", name=group, exact=True).get_by_text(label, exact=True).click()


def enter_hand(page: Page, pitcher: str, bid: int, high: str, low: str, jack: str = "Not in play", game: str = "Tied") -> None:
    tap(page, "Pitcher", pitcher)
    tap(page, "Bid", str(bid))
    tap(page, "High", high)
    tap(page, "Low", low)
    tap(page, "Jack", jack)
    tap(page, "Game", game)


def save_hand(page: Page, number: int) -> None:
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".result-line")).to_contain_text(f"Hand {number}:")


def score(page: Page, side: str):
    return page.locator(".scoreboard tr", has=page.get_by_role("rowheader", name=re.compile(rf"^{side}"))).locator(".total")


def test_a_whole_game_of_four_from_new_game_to_the_winner(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob", "Cat", "Dan"])
    expect(page.get_by_text("Ann deals, Bob bids first")).to_be_visible()
    enter_hand(page, "Bob", 3, "Bob", "Bob", jack="Bob", game="Ann")
    save_hand(page, 1)
    expect(page.locator(".result-line")).to_contain_text("Bob made 3, +3")
    expect(page.get_by_text("Bob deals, Cat bids first")).to_be_visible()
    enter_hand(page, "Cat", 2, "Cat", "Dan", game="Cat")
    save_hand(page, 2)
    enter_hand(page, "Bob", 4, "Bob", "Bob", jack="Bob", game="Bob")
    save_hand(page, 3)
    expect(page.get_by_role("status")).to_contain_text("Bob won!")
    expect(page.get_by_role("status")).to_contain_text("Final scores: Ann 1, Bob 7, Cat 2, Dan 1")
    expect(page.get_by_role("button", name="Save hand")).to_have_count(0)
    # The history is readable on the phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert Game.objects.get().is_finished


def test_after_a_save_the_form_is_clear_for_the_next_hand(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob", "Cat"])
    enter_hand(page, "Ann", 2, "Ann", "Ann")
    save_hand(page, 1)
    tap(page, "Pitcher", "Bob")
    tap(page, "Bid", "2")
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_text("Tap who won High.")).to_be_visible()
    enter_hand(page, "Bob", 2, "Bob", "Bob")
    save_hand(page, 2)  # Only the scoreboard comes back: the page clears the taps and the old message itself.
    expect(page.get_by_text("Tap who won High.")).to_have_count(0)
    expect(page.locator("#hand input[type=radio]:checked")).to_have_count(0)
    expect(page.get_by_text("Cat deals, Ann bids first")).to_be_visible()
    enter_hand(page, "Cat", 2, "Cat", "Cat")
    save_hand(page, 3)
    expect(page.locator(".hand-history tbody tr")).to_have_count(3)
    hands = list(Hand.objects.order_by("number"))
    assert [h.pitcher.player.name for h in hands] == ["Ann", "Bob", "Cat"]
    assert len({h.idempotency_key for h in hands}) == 3


def test_a_set_back_goes_negative(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob", "Cat"])
    enter_hand(page, "Ann", 3, "Bob", "Cat", game="Ann")
    save_hand(page, 1)
    expect(page.locator(".result-line")).to_contain_text("Ann was set back 3")
    expect(score(page, "Ann")).to_have_text("-3")
    expect(score(page, "Ann")).to_have_class(re.compile("negative"))
    enter_hand(page, "Bob", 2, "Bob", "Bob", game="Bob")
    save_hand(page, 2)
    expect(page.locator("#score-chart-box")).to_contain_text("Bob: 4")  # the chart catches up without a reload


def test_a_non_pitcher_past_the_target_does_not_win(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob", "Cat"])
    for number, pitcher in enumerate(["Bob", "Cat", "Bob", "Cat"], start=1):
        enter_hand(page, pitcher, 1, "Ann", "Ann", game="Ann")
        save_hand(page, number)
    expect(score(page, "Ann")).to_have_text("12")
    expect(page.get_by_role("status")).to_have_count(0)
    expect(page.get_by_role("button", name="Save hand")).to_be_visible()


def test_undo_and_edit_fix_mistakes(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob", "Cat", "Dan"])
    enter_hand(page, "Bob", 2, "Bob", "Bob")
    save_hand(page, 1)
    enter_hand(page, "Cat", 1, "Cat", "Dan")
    save_hand(page, 2)
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_text("Hand 2 was undone.")).to_be_visible()
    expect(score(page, "Cat")).to_have_text("0")
    page.get_by_role("link", name="Edit hand 1").click()
    tap(page, "Jack", "Bob")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_text("Hand 1 was changed")).to_be_visible()
    expect(score(page, "Bob")).to_have_text("3")


def test_a_double_tap_stores_one_hand(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob"])
    enter_hand(page, "Ann", 1, "Ann", "Bob")
    page.get_by_role("button", name="Save hand").dblclick()
    expect(page.locator(".result-line")).to_contain_text("Ann made 1, +1")
    page.reload()
    assert Hand.objects.count() == 1
    expect(page.get_by_text("Hand 2", exact=True)).to_be_visible()


# The dropped answer is reported by the browser and by htmx (which logs its error events).
@pytest.mark.console_errors_expected("ERR_CONNECTION_RESET", "htmx:sendError", "htmx:afterRequest")
def test_a_retry_after_a_lost_answer_stores_one_hand(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob"])
    posts: list[str] = []

    def answer_lost_the_first_time(route):
        posts.append(route.request.post_data or "")
        response = route.fetch()  # The server stores the hand...
        if len(posts) == 1:
            route.abort("connectionreset")  # ...but the phone never hears back.
        else:
            route.fulfill(response=response)

    page.route("**/hands/", answer_lost_the_first_time)
    enter_hand(page, "Ann", 1, "Ann", "Bob")
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("alert")).to_contain_text("No answer from the server")
    expect(page.get_by_role("button", name="Save hand")).to_be_enabled()
    assert Hand.objects.count() == 1
    page.get_by_role("button", name="Save hand").click()  # The same form, the same key, sent again.
    expect(page.locator(".result-line")).to_contain_text("Ann made 1, +1")
    expect(page.get_by_role("alert")).to_be_hidden()
    assert len(posts) == 2 and posts[0] == posts[1]
    assert Hand.objects.count() == 1


# The dropped answer is reported by the browser and by htmx; the refusal is a 409, which the browser logs too.
@pytest.mark.console_errors_expected("ERR_CONNECTION_RESET", "htmx:sendError", "htmx:afterRequest", "409")
def test_a_tap_changed_after_a_lost_answer_is_not_stored_as_that_hand_and_is_kept_for_the_next(scorer_page: Page):
    page = scorer_page
    start_game(page, ["Ann", "Bob"])
    posts: list[str] = []

    def answer_lost_the_first_time(route):
        posts.append(route.request.post_data or "")
        response = route.fetch()  # The server stores the hand...
        if len(posts) == 1:
            route.abort("connectionreset")  # ...but the phone never hears back.
        else:
            route.fulfill(response=response)

    page.route("**/hands/", answer_lost_the_first_time)
    enter_hand(page, "Ann", 1, "Ann", "Bob")
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("alert")).to_contain_text("No answer from the server")
    tap(page, "Pitcher", "Bob")  # A tap put right: the same form, the same key, another hand.
    page.get_by_role("button", name="Save hand").click()
    refused = "Hand 1 was already saved from the same form, so this one was not stored: "
    refused += "edit hand 1 to change it, or save this one as the next hand."
    expect(page.get_by_role("alert")).to_have_text([refused])
    expect(page.locator(".result-line")).to_contain_text("Hand 1: Ann made 1, +1")  # The hand stored, as it was stored.
    expect(page.get_by_role("group", name="Pitcher", exact=True).get_by_label("Bob")).to_be_checked()  # The taps, kept.
    assert list(Hand.objects.values_list("number", "pitcher__player__name")) == [(1, "Ann")]
    page.get_by_role("button", name="Save hand").click()  # Saved as the next hand, under a key of its own.
    expect(page.locator(".result-line")).to_contain_text("Hand 2: Bob made 1")
    assert list(Hand.objects.order_by("number").values_list("number", "pitcher__player__name")) == [(1, "Ann"), (2, "Bob")]


def test_without_javascript_a_game_starts_and_hands_are_saved(live_server, browser: Browser, make_user, league):
    make_user("sam", league, Role.SCORER)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Thursday Pitch").click()
    start_game(page, ["Ann", "Bob"])
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_text("Tap who won the bid.")).to_be_visible()
    enter_hand(page, "Ann", 1, "Ann", "Bob")
    save_hand(page, 1)
    expect(page.locator(".result-line")).to_contain_text("Ann made 1, +1")
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_text("Hand 1 was undone.")).to_be_visible()
    assert Hand.objects.count() == 0
    context.close()


def test_a_second_phone_follows_the_score(scorer_page: Page, browser: Browser):
    page = scorer_page
    start_game(page, ["Ann", "Bob", "Cat", "Dan"])
    watch_link = page.get_by_role("link", name=re.compile(r"\bwatch\b")).get_attribute("href")
    other = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    watcher = other.new_page()
    # Chromium's own view of the network: polls are revalidated and answered 304.
    network = other.new_cdp_session(watcher)
    network.send("Network.enable")
    statuses: list[int] = []
    network.on("Network.responseReceivedExtraInfo", lambda event: statuses.append(event["statusCode"]))
    watcher.goto(watch_link)
    expect(watcher.get_by_text("Hand 1", exact=True)).to_be_visible()
    for _ in range(100):
        if 304 in statuses:
            break
        watcher.wait_for_timeout(100)
    assert 304 in statuses
    enter_hand(page, "Dan", 2, "Dan", "Dan", game="Dan")
    save_hand(page, 1)
    expect(watcher.locator(".result-line")).to_contain_text("Dan made 2, +3", timeout=10_000)
    expect(score(watcher, "Dan")).to_have_text("3")
    other.close()


def test_players_sit_in_the_order_they_are_picked(scorer_page: Page, league):
    for name in ["Ann", "Bob", "Cat"]:
        Player.objects.create(league=league, name=name)
    page = scorer_page
    page.get_by_role("link", name="New game").click()
    for name in ["Cat", "Ann", "Bob"]:
        page.get_by_text(name, exact=True).click()
    expect(page.get_by_label("Seat for Cat")).to_have_value("1")
    page.get_by_text("Ann", exact=True).click()  # un-pick Ann: her seat is free again
    expect(page.get_by_label("Seat for Ann")).to_have_value("")
    page.get_by_label("New player 1", exact=True).fill("Dan")
    page.get_by_label("New player 1", exact=True).blur()
    expect(page.get_by_label("Seat for new player 1")).to_have_value("2")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    game = Game.objects.get()
    assert [s.player.name for s in game.seats.order_by("position")] == ["Cat", "Dan", "Bob"]


def test_names_typed_before_the_script_runs_keep_their_seats(scorer_page: Page, live_server):
    """A slow phone: the first name is typed before seating.js has started, the others after."""
    page = scorer_page
    held = []
    page.route("**/seating.js", lambda route: held.append(route))  # The script's request waits until the test lets it go.
    page.goto(live_server.url + "/leagues/thursday/games/new/", wait_until="commit")
    page.get_by_label("New player 1", exact=True).fill("Ann")
    page.get_by_label("New player 2", exact=True).focus()
    expect(page.get_by_label("Seat for new player 1")).to_have_value("")  # No script yet: nothing numbered her.
    until_routed(page, held)
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_load_state("load")  # Deferred scripts have run once the page has loaded.
    for i, name in enumerate(["Bob", "Cat", "Dan"], start=2):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    seating = page.get_by_role("region", name="Seating")
    expect(seating.get_by_role("listitem")).to_have_text(["Seat 1: Ann, deals first", "Seat 2: Bob", "Seat 3: Cat", "Seat 4: Dan"])
    page.get_by_label("Who deals first").select_option(label="Seat 2")
    expect(seating.get_by_role("listitem")).to_have_text(["Seat 1: Ann", "Seat 2: Bob, deals first", "Seat 3: Cat", "Seat 4: Dan"])
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Bob deals, Cat bids first")).to_be_visible()
    game = Game.objects.get()  # The first dealer is stored as seat 1, the clockwise order kept.
    assert [s.player.name for s in game.seats.order_by("position")] == ["Bob", "Cat", "Dan", "Ann"]
