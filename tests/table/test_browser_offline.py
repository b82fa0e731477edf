"""Offline at the table, in phone-sized Chromium: hands queued without a network, kept across a reload, synced in
order when it is back; a hand another phone took goes to "Not synced"; the scoreboard moves at once; every notice is
shown once, in the page's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from scores.engine import rules
from scores.leagues.models import Role
from scores.table import selectors, services
from scores.table.models import Game, Hand
from tests.accounts.test_browser_languages import WORDS
from tests.conftest import PASSWORD, hand, scripts_catalog, until_routed
from tests.table.test_browser_scoring import enter_hand, score

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "service_workers": "allow"}


@pytest.fixture
def browser_context_args(browser_context_args):
    # The service worker on, as on a real phone: it keeps the game page for a reload offline (conftest blocks it).
    return {**browser_context_args, "service_workers": "allow"}


@pytest.fixture
def game(league, make_user) -> Game:
    make_user("sam", league, Role.SCORER)
    return services.start_game(league=league, seats=["Ann", "Bob", "Cat"], code="cabin", rules=rules.Rules())


def log_in(page: Page, live_server) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def open_game(page: Page, live_server, game: Game, *, login: bool = True) -> Page:
    """Log in and open the game; reload once, so its service worker controls the page and has kept it."""
    if login:
        log_in(page, live_server)
    page.goto(live_server.url + game.get_absolute_url())
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    expect(page.locator("#offline[data-ready=true]")).to_have_count(1)
    return page


def save(page: Page) -> None:
    page.get_by_role("button", name="Save hand").click()


def stored_totals(game: Game) -> dict[str, int]:
    return dict(selectors.load_game(game).replay().totals)


HANDS = [  # (pitcher, bid, high, low, jack, game): Ann makes 2, Bob is set back 3, Cat makes 2.
    ("Ann", 2, "Ann", "Bob", "Not in play", "Ann"),
    ("Bob", 3, "Bob", "Cat", "Cat", "Tied"),
    ("Cat", 2, "Cat", "Cat", "Not in play", "Ann"),
]


def test_hands_saved_offline_wait_survive_a_reload_and_sync_when_the_network_is_back(
    live_server, page: Page, context: BrowserContext, game
):
    open_game(page, live_server, game)
    context.set_offline(True)
    for pitcher, bid, high, low, jack, point in HANDS:
        enter_hand(page, pitcher, bid, high, low, jack=jack, game=point)
        save(page)
    status = page.get_by_role("status").filter(has_text="Offline")
    expect(status).to_have_text("Offline · 3 hands waiting to sync")
    # Ann 2+0+1, Bob 1-3+0, Cat 0+2+2 (the rules engine agrees: see below), each marked as waiting.
    expected = {"Ann": "3", "Bob": "-2", "Cat": "4"}
    for side, total in expected.items():
        expect(score(page, side)).to_have_text(f"{total}waiting")
    expect(page.locator("#history-body tr.waiting")).to_have_count(3)
    expect(page.get_by_text("Hand 4", exact=True)).to_be_visible()
    assert Hand.objects.count() == 0

    response = page.reload()  # Still offline: the service worker's copy, with the queue from IndexedDB.
    assert response is not None and response.from_service_worker
    expect(status).to_have_text("Offline · 3 hands waiting to sync")
    for side, total in expected.items():
        expect(score(page, side)).to_have_text(f"{total}waiting")
    expect(page.locator("#history-body tr.waiting")).to_have_count(3)

    context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    assert list(Hand.objects.order_by("number").values_list("number", "pitcher__player__name")) == [(1, "Ann"), (2, "Bob"), (3, "Cat")]
    assert {side: str(total) for side, total in stored_totals(game).items()} == expected
    for side, total in expected.items():
        expect(score(page, side)).to_have_text(total)
    expect(page.locator("#history-body tr.waiting")).to_have_count(0)
    expect(page.get_by_text("waiting", exact=False)).to_have_count(0)
    expect(page.locator("#history-body tr")).to_have_count(3)


def test_a_hand_another_phone_took_goes_to_not_synced_and_can_be_saved_as_the_next(
    live_server, browser: Browser, page: Page, context: BrowserContext, game
):
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    phone_a = open_game(page, live_server, game)
    other = browser.new_context(**PHONE)
    phone_b = open_game(other.new_page(), live_server, game)

    context.set_offline(True)
    enter_hand(phone_a, "Bob", 2, "Bob", "Bob", game="Cat")  # A's hand 2.
    save(phone_a)
    expect(phone_a.get_by_role("status").filter(has_text="Offline")).to_have_text("Offline · 1 hand waiting to sync")
    enter_hand(phone_b, "Cat", 3, "Cat", "Cat", jack="Cat", game="Cat")  # B's hand 2, stored first.
    save(phone_b)
    expect(phone_b.locator(".result-line")).to_contain_text("Hand 2:")

    context.set_offline(False)
    not_synced = phone_a.get_by_role("region", name="Not synced")
    expect(not_synced).to_contain_text("Hand 2 · Bob bid 2")
    expect(not_synced).to_contain_text("Hand 2 was already recorded.")
    # Nothing forced in, nothing lost: the server has B's hand 2, A shows it, and A's hand is still there.
    assert list(Hand.objects.order_by("number").values_list("number", "pitcher__player__name")) == [(1, "Ann"), (2, "Cat")]
    expect(score(phone_a, "Cat")).to_have_text("4")

    not_synced.get_by_role("button", name="Save as the next hand").click()
    expect(phone_a.locator("#offline[data-sync=done]")).to_have_count(1)
    expect(not_synced).to_be_hidden()
    assert list(Hand.objects.order_by("number").values_list("number", "pitcher__player__name")) == [(1, "Ann"), (2, "Cat"), (3, "Bob")]
    totals = stored_totals(game)
    assert totals == {"Ann": 2, "Bob": 2, "Cat": 5}  # Bob made 2; Cat took Game.
    for side, total in totals.items():
        expect(score(phone_a, side)).to_have_text(str(total))
    other.close()


@pytest.mark.console_errors_expected("ERR_CONNECTION_RESET", "409")  # The dropped answer and the refusal, which the browser logs.
def test_a_waiting_hand_changed_after_it_was_stored_goes_to_not_synced_and_can_be_saved_as_the_next(
    live_server, page: Page, context: BrowserContext, game
):
    open_game(page, live_server, game)
    context.set_offline(True)
    enter_hand(page, "Ann", 2, "Ann", "Bob", game="Ann")
    save(page)
    sent: list[str] = []

    def answer_lost_the_first_time(route: Route) -> None:
        sent.append(route.request.post_data or "")
        response = route.fetch()  # The server stores the hand...
        if len(sent) == 1:
            route.abort("connectionreset")  # ...but the phone never hears back, and keeps it waiting.
        else:
            route.fulfill(response=response)

    page.route("**/hands/sync/", answer_lost_the_first_time)
    context.set_offline(False)
    expect(page.get_by_role("alert")).to_have_text(["The server could not do that just now. Tap again in a moment."])
    assert list(Hand.objects.values_list("number", "pitcher__player__name")) == [(1, "Ann")]
    page.locator("#history-body tr.waiting").get_by_role("button", name="Edit").click()
    enter_hand(page, "Bob", 2, "Bob", "Bob")  # Put right on the phone, under the key the server already stored hand 1 with.
    save(page)
    not_synced = page.get_by_role("region", name="Not synced")
    expect(not_synced).to_contain_text("Hand 1 · Bob bid 2")
    expect(not_synced).to_contain_text("Hand 1 was already saved from the same form, so this one was not stored")
    assert list(Hand.objects.values_list("number", "pitcher__player__name")) == [(1, "Ann")]
    not_synced.get_by_role("button", name="Save as the next hand").click()
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    expect(not_synced).to_be_hidden()
    assert list(Hand.objects.order_by("number").values_list("number", "pitcher__player__name")) == [(1, "Ann"), (2, "Bob")]


@pytest.mark.console_errors_expected("ERR_INTERNET_DISCONNECTED")  # The game page asked for while the network is gone.
def test_a_synced_hand_is_shown_once_before_during_and_after_the_answer_and_then_with_the_servers_totals(
    live_server, page: Page, context: BrowserContext, game
):
    """The sync's answer is held back while another phone corrects hand 1, and the network is gone again by the time
    it comes (the game page cannot be fetched): the phone shows its own scores, marked waiting, until the server's
    page comes with the hand, then the server's; each hand counted once, never the copy of the page kept for offline."""
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    open_game(page, live_server, game)
    context.set_offline(True)
    enter_hand(page, "Bob", 3, "Bob", "Cat", jack="Cat")  # Hand 2: Bob is set back 3, Cat takes 2.
    save(page)
    status = page.locator("#offline .offline-status")
    phone = {"Bob": "-3", "Cat": "2", "Ann": "2"}

    def shows_the_phones_hand(state: str) -> None:
        for side, total in phone.items():
            expect(score(page, side)).to_have_text(f"{total}waiting")
        expect(status).to_have_text(f"{state} · 1 hand waiting to sync")
        expect(page.locator("#history-body tr")).to_have_count(2)
        expect(page.get_by_text("Hand 3", exact=True)).to_be_visible()

    shows_the_phones_hand("Offline")  # Before.
    held: list[Route] = []
    page.route("**/hands/sync/", lambda route: held.append(route))
    game_page = live_server.url + game.get_absolute_url()
    context.route(game_page, lambda route: route.abort("internetdisconnected"))
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=running]")).to_have_count(1)
    shows_the_phones_hand("Syncing")  # During.
    until_routed(page, held)
    assert len(held) == 1 and Hand.objects.count() == 1
    services.edit_hand(game=game, number=1, hand=hand("Bob", 2, "Bob", "Bob"))  # Another phone: Bob made hand 1, not Ann.
    held[0].continue_()
    expect(page.locator("#offline[data-sync=running]")).to_have_count(0)  # Answered.
    shows_the_phones_hand("Syncing")  # Stored, but the server's page did not come: still this phone's, counted once.
    expect(page.get_by_role("alert")).to_have_text(["The server could not do that just now. Tap again in a moment."])
    assert Hand.objects.count() == 2

    context.unroute(game_page)  # The network is back: the hand is sent again, stored once, and the server's page comes.
    context.set_offline(True)
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=running]")).to_have_count(1)
    shows_the_phones_hand("Syncing")
    until_routed(page, held, 2)
    assert len(held) == 2
    held[1].continue_()
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    server = stored_totals(game)
    assert server == {"Ann": 0, "Bob": -1, "Cat": 2} and Hand.objects.count() == 2
    for side, total in server.items():
        expect(score(page, side)).to_have_text(str(total))
    expect(page.get_by_role("alert")).to_have_text(["The server scored hand 2 differently from this phone: its scores are shown."])
    expect(page.get_by_text("Hand 3", exact=True)).to_be_visible()
    expect(page.locator("#history-body tr")).to_have_count(2)
    expect(page.get_by_text("waiting", exact=False)).to_have_count(0)


def test_a_double_tap_offline_queues_one_hand(live_server, page: Page, context: BrowserContext, game):
    open_game(page, live_server, game)
    context.set_offline(True)
    enter_hand(page, "Ann", 2, "Ann", "Bob", game="Ann")
    page.get_by_role("button", name="Save hand").dblclick()
    expect(page.get_by_role("status").filter(has_text="Offline")).to_have_text("Offline · 1 hand waiting to sync")
    expect(page.locator("#history-body tr.waiting")).to_have_count(1)
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    assert Hand.objects.count() == 1


def test_a_waiting_hand_can_be_undone_and_edited_offline_and_what_needs_the_server_says_so(
    live_server, page: Page, context: BrowserContext, game
):
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    open_game(page, live_server, game)
    context.set_offline(True)
    page.get_by_role("link", name="Edit hand 1").click()  # A stored hand needs the server.
    expect(page.get_by_role("alert").filter(has_text="Not available offline")).to_be_visible()
    for pitcher in ("Bob", "Cat"):
        enter_hand(page, pitcher, 2, pitcher, pitcher)
        save(page)
    page.locator("#history-body tr.waiting").first.get_by_role("button", name="Undo last hand").click()  # The newest first.
    expect(page.get_by_role("alert")).to_have_text(["Hand 3 was undone."])  # It replaced "Not available offline".
    page.locator("#history-body tr.waiting").get_by_role("button", name="Edit").click()
    enter_hand(page, "Bob", 2, "Cat", "Cat")  # Bob is set back now.
    save(page)
    expect(page.locator("#history-body tr.waiting")).to_have_count(1)
    expect(score(page, "Bob")).to_have_text("-2waiting")
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    assert stored_totals(game) == {"Ann": 2, "Bob": -2, "Cat": 2}


def test_online_the_scoreboard_moves_before_the_server_answers(live_server, page: Page, game):
    open_game(page, live_server, game)
    held: list[Route] = []
    page.route("**/hands/", lambda route: held.append(route))  # The server's answer waits until the test has seen the scoreboard move.
    enter_hand(page, "Ann", 2, "Ann", "Ann", game="Ann")
    save(page)
    expect(score(page, "Ann")).to_have_text("3")
    until_routed(page, held)
    assert Hand.objects.count() == 0 and len(held) == 1
    held[0].continue_()
    expect(page.locator(".result-line")).to_contain_text("Hand 1: Ann made 2, +3")
    expect(page.get_by_role("alert").filter(has_text="differently")).to_have_count(0)


def test_online_a_hand_another_phone_took_first_brings_the_servers_scores_and_one_notice(live_server, page: Page, game):
    open_game(page, live_server, game)
    services.record_hand(game=game, number=1, hand=hand("Cat", 3, "Cat", "Cat", jack="Cat"))
    enter_hand(page, "Ann", 2, "Ann", "Ann", game="Ann")
    save(page)  # Another phone took hand 1: the phone showed Ann 3, the server has Cat 3.
    # The server's answer says why the scores are not this phone's; the phone adds no second notice of its own.
    expect(page.get_by_role("alert")).to_have_text(["Hand 1 was already recorded. Here is the game as it stands now."])
    expect(score(page, "Ann")).to_have_text("0")
    expect(score(page, "Cat")).to_have_text("3")


def test_online_a_hand_the_server_scored_differently_says_so_once(live_server, page: Page, game):
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    open_game(page, live_server, game)
    # Another phone corrects hand 1 (Bob made it, not Ann): this page still has Ann 2, and scores hand 2 from there.
    services.edit_hand(game=game, number=1, hand=hand("Bob", 2, "Bob", "Bob"))
    enter_hand(page, "Cat", 2, "Cat", "Cat")
    save(page)
    expect(page.get_by_role("alert")).to_have_text(["The server scored hand 2 differently from this phone: its scores are shown."])
    assert stored_totals(game) == {"Ann": 0, "Bob": 2, "Cat": 2}
    for side, total in stored_totals(game).items():
        expect(score(page, side)).to_have_text(str(total))


def test_a_reload_offline_starts_from_the_hands_saved_online_since_the_page_was_opened(
    live_server, page: Page, context: BrowserContext, game
):
    open_game(page, live_server, game)
    enter_hand(page, "Ann", 2, "Ann", "Ann", game="Ann")
    save(page)
    expect(page.locator(".result-line")).to_contain_text("Hand 1: Ann made 2, +3")
    enter_hand(page, "Bob", 1, "Bob", "Cat")
    save(page)
    expect(page.locator(".result-line")).to_contain_text("Hand 2: Bob made 1, +1")
    context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.get_by_text("Hand 3", exact=True)).to_be_visible()
    expect(page.locator("#history-body tr")).to_have_count(2)
    enter_hand(page, "Cat", 2, "Cat", "Cat")
    save(page)
    expect(page.get_by_role("status").filter(has_text="Offline")).to_have_text("Offline · 1 hand waiting to sync")
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    assert list(Hand.objects.order_by("number").values_list("number", "pitcher__player__name")) == [(1, "Ann"), (2, "Bob"), (3, "Cat")]
    assert stored_totals(game) == {"Ann": 3, "Bob": 1, "Cat": 3}


KEPT_GAME_PAGES = "caches.open('pitch-pages').then((c) => c.keys()).then((k) => k.filter((r) => r.url.includes('/games/')).length)"


def test_logging_out_forgets_the_kept_game_pages(live_server, page: Page, game):
    open_game(page, live_server, game)
    kept = KEPT_GAME_PAGES
    assert page.evaluate(kept) == 1
    page.get_by_text("Menu").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in").first).to_be_attached()
    for _ in range(50):  # The worker deletes them as the log-out goes out (polled: no timing by luck).
        if page.evaluate(kept) == 0:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(kept) == 0


def _log_in(page: Page, live_server, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your leagues")).to_be_visible()


def test_a_kept_game_page_is_not_shown_to_the_next_account_when_a_session_ends_without_log_out(
    live_server, page: Page, context: BrowserContext, game, make_user
):
    """Sam's session ends without "Log out" (the cookies cleared: as when it expires, or its password changes on
    another phone); Bea, of no league, logs in on the same phone, goes offline and opens Sam's game: she saw it."""
    open_game(page, live_server, game)
    context.clear_cookies()
    make_user("bea")
    _log_in(page, live_server, "bea")
    for _ in range(50):  # The worker drops them once it has seen a page for another account: let it finish.
        if page.evaluate(KEPT_GAME_PAGES) == 0:
            break
        page.wait_for_timeout(100)

    context.set_offline(True)
    with pytest.raises(PlaywrightError, match="net::ERR_FAILED"):
        page.goto(live_server.url + game.get_absolute_url())
    expect(page.get_by_text("cabin")).to_have_count(0)
    expect(page.get_by_text("Ann")).to_have_count(0)


def test_a_kept_game_page_is_still_shown_offline_to_the_account_that_kept_it(live_server, page: Page, context: BrowserContext, game):
    open_game(page, live_server, game)
    page.goto(live_server.url + "/")  # Other pages of the same account keep the copy.
    context.set_offline(True)
    response = page.goto(live_server.url + game.get_absolute_url())
    assert response is not None and response.from_service_worker
    expect(page.get_by_role("button", name="Save hand")).to_be_visible()


def chart_caught_up(page: Page, legend: str) -> None:
    """After an undo the score chart asks the server for itself again: it shows the undone game before the network
    goes, so no request of it is left to fail offline."""
    expect(page.locator("#score-chart-legend")).to_contain_text(legend)


def test_restore_is_for_stored_hands_a_hand_queued_offline_takes_the_undone_ones_place(
    live_server, page: Page, context: BrowserContext, game
):
    for pitcher in ("Ann", "Bob"):
        services.record_hand(game=game, hand=hand(pitcher, 2, pitcher, pitcher))
    open_game(page, live_server, game)
    page.get_by_role("button", name="Undo last hand").click()  # A stored hand: the server undoes it, Restore is offered.
    expect(page.get_by_role("button", name="Restore")).to_be_visible()
    chart_caught_up(page, "Bob: 0")
    context.set_offline(True)
    enter_hand(page, "Cat", 2, "Cat", "Cat")
    save(page)  # Queued as hand 2: the undone hand's place is taken, so nothing is left to restore.
    expect(page.get_by_role("button", name="Restore")).to_have_count(0)
    page.locator("#history-body tr.waiting").get_by_role("button", name="Undo last hand").click()
    # Said once: the server's notice of its own undo went when the hand was queued, and this one took its place.
    expect(page.get_by_role("alert")).to_have_text(["Hand 2 was undone."])
    expect(page.get_by_role("button", name="Restore")).to_have_count(0)  # A waiting hand's undo is this phone's own.
    enter_hand(page, "Cat", 2, "Cat", "Cat")
    save(page)
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    assert list(Hand.objects.filter(game=game).values_list("pitcher__player__name", flat=True)) == ["Ann", "Cat"]


def test_each_notice_is_shown_once_and_the_newest_replaces_the_one_before(live_server, page: Page, context: BrowserContext, game):
    """One place for notices: the server's and this phone's queue's take each other's place, none is left beside another."""
    for pitcher in ("Ann", "Bob"):
        services.record_hand(game=game, hand=hand(pitcher, 2, pitcher, pitcher))
    open_game(page, live_server, game)
    notices = page.get_by_role("alert")
    page.get_by_role("button", name="Undo last hand").click()
    expect(notices).to_have_text(["Hand 2 was undone."])  # The server's.
    chart_caught_up(page, "Bob: 0")
    context.set_offline(True)
    page.get_by_role("link", name="Edit hand 1").click()
    expect(notices).to_have_text(["Not available offline: editing a stored hand and the auction need the connection."])
    page.get_by_role("link", name="Edit hand 1").click()  # Tapped again: still said once.
    expect(notices).to_have_text(["Not available offline: editing a stored hand and the auction need the connection."])
    save(page)  # Nothing tapped.
    expect(notices).to_have_text(["Tap the pitcher, the bid and who won each point, then save the hand."])
    for pitcher in ("Cat", "Ann"):
        enter_hand(page, pitcher, 2, pitcher, pitcher)
        save(page)
    expect(page.locator("#history-body tr.waiting")).to_have_count(2)
    expect(notices).to_have_count(0)  # A hand queued: the notice before it has gone.
    page.locator("#history-body tr.waiting").last.get_by_role("button", name="Edit").click()
    expect(notices).to_have_text(["Editing hand 2, which waits to sync."])
    enter_hand(page, "Cat", 2, "Cat", "Bob")
    save(page)
    expect(notices).to_have_count(0)
    for number in (3, 2):  # The same words twice in a row, then the next hand's: one notice each time.
        page.locator("#history-body tr.waiting").first.get_by_role("button", name="Undo last hand").click()
        expect(notices).to_have_text([f"Hand {number} was undone."])
    expect(page.locator("#history-body tr.waiting")).to_have_count(0)
    context.set_offline(False)
    expect(notices).to_have_count(0)
    assert stored_totals(game) == {"Ann": 2, "Bob": 0, "Cat": 0}


@pytest.mark.console_errors_expected("500 (Internal Server Error)", "Response Status Error Code 500")
def test_a_failed_save_is_said_once_however_often_it_is_tapped_again(live_server, page: Page, game):
    open_game(page, live_server, game)
    notices = page.get_by_role("alert")
    failing: list[Route] = []

    def fail(route: Route) -> None:
        failing.append(route)
        route.fulfill(status=500, body="broken")

    page.route("**/hands/", fail)
    enter_hand(page, "Ann", 2, "Ann", "Ann", game="Ann")
    for tries in (1, 2):
        save(page)
        expect(notices).to_have_text(["The server could not do that just now. Tap again in a moment."])
        expect(score(page, "Ann")).to_have_text("0")  # The server's scores again, not this phone's guess.
        assert len(failing) == tries
    page.unroute("**/hands/")
    save(page)  # The same taps and key: stored once, and the notice goes with the answer.
    expect(page.locator(".result-line")).to_contain_text("Hand 1: Ann made 2, +3")
    expect(notices).to_have_count(0)
    assert Hand.objects.count() == 1


def switch_language(page: Page, lang: str) -> None:
    """From English, with the switcher in the menu."""
    page.get_by_text("Menu", exact=True).click()
    page.get_by_role("button", name=WORDS[lang]["language"]).click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def enter_hand_in(page: Page, lang: str, pitcher: str, bid: int, high: str, low: str) -> None:
    """A hand by the labels of the language's interface: the Jack not in play, Game tied."""
    words = WORDS[lang]
    for group, choice in ((words["pitcher"], pitcher), (words["bid"], str(bid)), (words["high"], high), (words["low"], low),
                          (words["jack"], words["not_in_play"]), (words["game"], words["tied"])):  # fmt: skip
        page.get_by_role("group", name=group, exact=True).get_by_text(choice, exact=True).click()
    page.get_by_role("button", name=words["save"]).click()


def said_in(lang: str, text: str, *, context: str | None = None) -> str:
    """What the scripts say in the language: the djangojs catalog's words, read by Python's own gettext."""
    catalog = scripts_catalog(lang)
    return catalog.pgettext(context, text) if context else catalog.gettext(text)


def queued_in(lang: str, count: int) -> str:
    """The status line offline with hands waiting, in the language's own plural form for the count."""
    catalog = scripts_catalog(lang)
    waiting = catalog.ngettext("%(count)s hand waiting to sync", "%(count)s hands waiting to sync", count) % {"count": count}
    return f"{catalog.gettext('Offline')} · {waiting}"


def test_a_long_queue_counts_its_hands_in_the_language_past_forty(live_server, page: Page, context: BrowserContext, league, make_user):
    """Maltese has four plural forms; the count comes from the catalog's ngettext, for any number of hands."""
    make_user("sam", league, Role.SCORER)
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat"], code="long", rules=rules.Rules(target=99))
    log_in(page, live_server)
    switch_language(page, "mt")
    open_game(page, live_server, game, login=False)
    context.set_offline(True)
    enter_hand_in(page, "mt", "Ann", 2, "Ann", "Ann")
    status = page.locator("#offline .offline-status")
    expect(status).to_have_text(queued_in("mt", 1))
    # Forty more of the same hand, as this page queued the first (its record, new keys and numbers): Ann +2 a hand.
    page.evaluate(
        """() => new Promise((resolve, reject) => {
          const request = indexedDB.open("pitch-offline", 1);
          request.onsuccess = () => {
            const hands = request.result.transaction("hands", "readwrite").objectStore("hands");
            const all = hands.getAll();
            all.onsuccess = () => {
              const [first] = all.result;
              for (let i = 1; i <= 40; i++) {
                hands.put({ ...first, key: crypto.randomUUID(), number: first.number + i, order: first.order + i });
              }
              hands.transaction.oncomplete = resolve;
            };
          };
          request.onerror = reject;
        })"""
    )
    page.reload()  # Offline: the kept page, and the queue from IndexedDB.
    expect(status).to_have_text(queued_in("mt", 41))
    expect(score(page, "Ann")).to_have_text("82" + said_in("mt", "waiting", context="hand not stored yet"))
    expect(page.locator("#history-body tr.waiting")).to_have_count(41)


def test_after_a_language_switch_the_scripts_speak_the_new_language_offline(live_server, page: Page, context: BrowserContext, game):
    """The catalog's URL names its language: the copy the service worker keeps is never the language left behind."""
    open_game(page, live_server, game)  # In English: the worker has kept the page and every language's catalog.
    switch_language(page, "vi")
    context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    status = page.locator("#offline .offline-status")
    expect(status).to_have_text(said_in("vi", "Offline: the hands you save are kept on this phone and sent when the connection is back."))
    enter_hand_in(page, "vi", "Ann", 2, "Ann", "Ann")
    expect(status).to_have_text(queued_in("vi", 1))
    expect(score(page, "Ann")).to_have_text("2" + said_in("vi", "waiting", context="hand not stored yet"))
