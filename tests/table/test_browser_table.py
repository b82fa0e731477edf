"""At the table on a phone: the next hand in view after every write, the last hand on this phone said offline, why a
side at the target has not won, the house rules in full, deleting a game, the newest hand first, nothing cut off, and
a finished game's result to share; at the phone sizes the issue names, found by the words a player sees."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scores.engine import rules
from scores.leagues.models import Player, Role
from scores.table import services
from scores.table.models import Game
from tests.conftest import PASSWORD, hand
from tests.phone import phone_fixtures
from tests.table.test_browser_phone import FIVE, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


size, browser_context_args = phone_fixtures(service_workers=True)


def enter(page: Page, pitcher: str, bid: int, high: str, low: str, jack: str = "Not in play", game: str = "Tied") -> None:
    for group, label in (("Pitcher", pitcher), ("Bid", str(bid)), ("High", high), ("Low", low), ("Jack", jack), ("Game", game)):
        tap(page, group, label)


def save(page: Page) -> None:
    page.get_by_role("button", name="Save hand").click()


def next_hand_in_view(page: Page) -> None:
    """The next hand's first row (the Pitcher) wholly on the screen and below the sticky scoreboard, the page not
    scrolled by the test."""
    expect(page.locator(".htmx-request, .htmx-settling, .htmx-swapping")).to_have_count(0)
    pitcher = page.get_by_role("group", name="Pitcher", exact=True)
    expect(pitcher).to_be_in_viewport(ratio=1)
    board = page.locator("#scoreboard").bounding_box()
    row = pitcher.bounding_box()
    assert board is not None and row is not None
    assert row["y"] >= board["y"] + board["height"] - 0.5, (row, board)
    assert row["y"] + row["height"] <= page.viewport_size["height"] + 0.5


def notices(page: Page):
    return page.get_by_role("alert")


def test_after_every_save_undo_restore_edit_and_delete_the_next_hand_is_in_view(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = services.start_game(league=league, seats=FIVE, rules=rules.Rules())
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    page.goto(live_server.url + game.get_absolute_url())
    enter(page, "Bob", 2, "Bob", "Bob")
    save(page)
    expect(page.locator(".result-line")).to_have_text("Hand 2: Bob made 2, +2")
    next_hand_in_view(page)
    page.get_by_role("button", name="Undo last hand").click()
    expect(notices(page)).to_have_text(["Hand 2 was undone."])
    next_hand_in_view(page)
    page.get_by_role("button", name="Restore").click()
    expect(notices(page)).to_have_text(["Hand 2 was restored."])
    next_hand_in_view(page)
    page.get_by_role("link", name="Edit hand 1").click()
    tap(page, "Low", "Cat")
    page.get_by_role("button", name="Save changes").click()
    expect(notices(page)).to_have_text(["Hand 1 was changed; the totals after it are recomputed."])
    next_hand_in_view(page)
    enter(page, "Cat", 2, "Cat", "Cat")
    save(page)  # The notice was for once: the next action takes it away.
    expect(page.locator(".result-line")).to_have_text("Hand 3: Cat made 2, +2")
    expect(notices(page)).to_have_count(0)
    next_hand_in_view(page)
    page.get_by_role("link", name="Edit hand 1").click()
    page.get_by_text("Delete hand 1", exact=True).click()
    page.get_by_role("button", name="Yes, delete hand 1").click()
    expect(notices(page)).to_have_text(["Hand 1 was deleted."])
    next_hand_in_view(page)
    expect(page.get_by_role("status").filter(has_text="Hand 1 was deleted.")).to_have_count(0)  # Said once, in one place.


def test_the_league_players_typed_as_new_are_said_once_and_leave_with_the_first_hand(scorer_page: Page, league, size):
    page = scorer_page
    for name in ("Ann", "Bob"):
        Player.objects.create(league=league, name=name)
    page.get_by_role("link", name="New game").first.click()
    for i, name in enumerate(("ann", "bob", "Cat"), start=1):
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").click()
    expect(notices(page)).to_have_text(["“ann” is the league's player Ann. “bob” is the league's player Bob."])
    enter(page, "Ann", 2, "Ann", "Ann")
    save(page)
    expect(page.locator(".result-line")).to_have_text("Hand 1: Ann made 2, +2")
    expect(notices(page)).to_have_count(0)
    next_hand_in_view(page)


def log_in(page: Page, live_server, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Thursday Pitch")).to_be_visible()


def open_offline_ready(page: Page, live_server, game: Game) -> None:
    page.goto(live_server.url + game.get_absolute_url())
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    expect(page.locator("#offline[data-ready=true]")).to_have_count(1)


def side_row(page: Page, side: str):
    return page.locator(".scoreboard tr", has=page.get_by_role("rowheader", name=re.compile(rf"^{side}")))


def test_offline_the_announcement_changes_and_leader_are_the_last_hand_on_this_phone(
    live_server, page: Page, context: BrowserContext, league, make_user, size
):
    make_user("sam", league, Role.SCORER)
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat"], rules=rules.Rules())
    services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"))
    log_in(page, live_server, "sam")
    open_offline_ready(page, live_server, game)
    line = page.locator(".result-line")
    expect(line).to_have_text("Hand 1: Bob made 2, +2")
    context.set_offline(True)
    enter(page, "Ann", 3, "Ann", "Ann", game="Ann")
    save(page)
    expect(line).to_have_text("Hand 2: Ann made 3, +3")
    expect(side_row(page, "Ann")).to_have_class(re.compile(r"\bleader\b"))
    expect(side_row(page, "Bob")).not_to_have_class(re.compile(r"\bleader\b"))
    expect(side_row(page, "Ann").get_by_role("rowheader")).to_have_accessible_name(re.compile("Ann leads"))
    expect(side_row(page, "Ann").locator("td.delta")).to_have_text("+3")
    expect(side_row(page, "Bob").locator("td.delta")).to_have_count(0)  # Bob's +2 was hand 1's.
    expect(notices(page)).to_have_count(0)
    enter(page, "Cat", 2, "Ann", "Bob")
    save(page)  # Set back: the line says so, and Cat's change is the set.
    expect(line).to_have_text("Hand 3: Cat was set back 2")
    expect(side_row(page, "Cat").locator("td.delta")).to_have_text("-2")
    page.locator("#history-body tr.waiting").first.get_by_role("button", name="Undo last hand").click()
    expect(notices(page)).to_have_text(["Hand 3 was undone."])  # One notice for the one undo.
    expect(line).to_have_text("Hand 2: Ann made 3, +3")
    page.locator("#history-body tr.waiting").first.get_by_role("button", name="Undo last hand").click()
    expect(notices(page)).to_have_text(["Hand 2 was undone."])
    expect(line).to_have_text("Hand 1: Bob made 2, +2")  # No hand waits: the server's last hand again.
    expect(side_row(page, "Bob")).to_have_class(re.compile(r"\bleader\b"))
    expect(side_row(page, "Ann")).not_to_have_class(re.compile(r"\bleader\b"))


REASON = "Ann has {total} (the target is 5) but did not pitch: only the pitcher's side goes out."


def test_a_side_past_the_target_that_did_not_pitch_is_told_why_it_has_not_won(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat"], rules=rules.Rules(target=5))
    services.record_hand(game=game, hand=hand("Bob", 1, "Bob", "Ann", jack="Ann", game="Ann"))  # Ann 3, Bob 1.
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.get_by_text("Ann has", exact=False)).to_have_count(0)
    enter(page, "Bob", 1, "Bob", "Ann", jack="Ann", game="Ann")
    save(page)
    expect(page.get_by_text(REASON.format(total=6), exact=True)).to_be_visible()
    page.context.set_offline(True)
    enter(page, "Cat", 1, "Cat", "Ann", game="Bob")  # Waiting: this phone's scorer says the same, in the same words.
    save(page)
    expect(page.get_by_text(REASON.format(total=7), exact=True)).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    expect(page.get_by_text(REASON.format(total=7), exact=True)).to_be_visible()  # The server's words after the sync.


def test_the_house_rules_read_in_full_and_the_summary_says_the_target_picked(scorer_page: Page, size):
    page = scorer_page
    page.get_by_role("link", name="New game").first.click()
    page.get_by_text("House rules", exact=False).first.click()
    for choice in (
        "A set pitcher at the target still goes out",
        "The pitcher goes out only by making the bid",
        "Not allowed: a set stops at 0",
    ):
        label = page.get_by_text(choice, exact=True)
        expect(label).to_be_visible()
        assert label.evaluate("(el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= screen.width")
    page.get_by_role("group", name="Play to").get_by_text("21", exact=True).click()
    expect(page.locator(".rules-line")).to_contain_text("to 21")
    page.get_by_role("group", name="Going out").get_by_text("The pitcher goes out only by making the bid").click()
    expect(page.locator(".rules-line")).to_contain_text("to 21 · set pitcher can't go out")
    page.get_by_role("group", name="Play to").get_by_text("Other", exact=True).click()
    page.get_by_label("Other target").fill("33")
    expect(page.locator(".rules-line")).to_contain_text("to 33 · set pitcher can't go out")


def test_an_owner_deletes_a_finished_game_after_being_asked(live_server, page: Page, league, make_user, size):
    make_user("olive", league, Role.OWNER)
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=4))
    services.record_hand(game=game, hand=hand("Ann", 4, "Ann", "Ann", jack="Ann", game="Ann"))
    log_in(page, live_server, "olive")
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.get_by_text("Ann won!")).to_be_visible()
    yes = page.get_by_role("button", name="Yes, delete this game")
    expect(yes).to_be_hidden()  # Asked first.
    page.get_by_text("Delete this game", exact=True).click()
    yes.click()
    expect(page.get_by_role("status").filter(has_text="was deleted.")).to_be_visible()
    assert not Game.objects.filter(pk=game.pk).exists()


def test_a_game_with_no_hand_changes_its_target(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules())
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_text("Change the rules (no hand yet)", exact=True).click()
    page.get_by_role("group", name="Play to").get_by_text("21", exact=True).click()
    page.get_by_role("button", name="Play by these rules").click()
    expect(notices(page)).to_have_text([re.compile("The game is now played by these rules: 4-point · to 21")])
    expect(page.locator("#house-rules")).to_have_text("4-point · to 21")
    enter(page, "Ann", 2, "Ann", "Ann")
    save(page)
    expect(page.get_by_text("Change the rules (no hand yet)", exact=True)).to_have_count(0)


def test_the_newest_hand_is_first_and_undo_is_within_a_screen_of_save(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = services.start_game(league=league, seats=FIVE, rules=rules.Rules())
    for pitcher in ("Ann", "Bob"):
        services.record_hand(game=game, hand=hand(pitcher, 2, pitcher, pitcher))
    page.goto(live_server.url + game.get_absolute_url())
    enter(page, "Cat", 2, "Cat", "Cat")
    save(page)
    expect(page.locator("#history-body tr").first.locator("td").first).to_have_text("3")
    expect(page.locator("#history-body tr td:first-child")).to_have_text(["3", "2", "1"])
    undo = page.get_by_role("button", name="Undo last hand").bounding_box()
    saved = page.get_by_role("button", name="Save hand").bounding_box()
    assert undo is not None and saved is not None
    assert undo["y"] + undo["height"] - saved["y"] <= page.viewport_size["height"]


LINES = "(el) => { const range = document.createRange(); range.selectNodeContents(el); return range.getClientRects().length; }"


def one_line(element) -> bool:
    return element.evaluate(LINES) == 1


LONGEST = "W" * 40  # The longest name the app accepts, without a space to break at.


def test_nothing_the_table_needs_is_cut_off_and_heads_are_whole_names(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = services.start_game(league=league, seats=[LONGEST, "Bob", "Cat", "Dan"], rules=rules.Rules())
    services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"))
    page.goto(live_server.url + game.get_absolute_url())
    for part in (page.locator(".next-hand"), page.locator(".result-line")):
        expect(part).to_be_visible()
        assert part.evaluate("(el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= screen.width")
    expect(page.locator(".next-hand")).to_contain_text("Bob deals, Cat bids first")
    heads = page.locator(".hand-history thead th").all()
    assert all(one_line(head) for head in heads[3:])  # Bob, Cat, Dan: each name on one line, not letter by letter.
    assert heads[2].evaluate("(el) => el.scrollWidth <= el.clientWidth")  # The longest is broken where it must, not cut.
    page.get_by_role("link", name="Edit hand 1").click()
    page.get_by_role("button", name="Save changes").click()
    notice = notices(page)
    expect(notice).to_be_visible()
    assert notice.evaluate("(el) => el.scrollWidth <= el.clientWidth")


def test_the_heads_of_four_short_names_stay_whole_at_320(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules())
    services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"))
    page.goto(live_server.url + game.get_absolute_url())
    heads = page.locator(".hand-history thead th")
    expect(heads).to_have_text(["#", "Hand", "Ann", "Bob", "Cat", "Dan"])
    assert all(one_line(head) for head in heads.all()[2:])


def finished_game(league) -> Game:
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=5))
    services.record_hand(game=game, hand=hand("Bob", 2, "Bob", "Bob"))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann", jack="Ann", game="Ann"))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Bob", jack="Ann"))
    return game


def test_a_finished_game_shares_its_result_by_the_share_sheet(scorer_page: Page, live_server, league, size):
    page = scorer_page
    game = finished_game(league)
    page.add_init_script("Navigator.prototype.share = function (data) { window.shared = data; return Promise.resolve(); };")
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_role("button", name="Share the result").click()
    shared = page.evaluate("window.shared && window.shared.text")
    assert "Ann won" in shared and "Final scores: Ann 6, Bob 3" in shared and "3 hands played" in shared


def test_without_a_share_sheet_the_result_is_copied(scorer_page: Page, live_server, league, size, context: BrowserContext):
    page = scorer_page
    game = finished_game(league)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.add_init_script("delete Navigator.prototype.share;")
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_role("button", name="Share the result").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "Ann won" in copied and "Final scores: Ann 6, Bob 3" in copied and "3 hands played" in copied


def test_the_watch_page_says_when_it_last_changed(live_server, page: Page, league, size):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules())
    page.goto(live_server.url + f"/watch/{game.share_token}/")
    expect(page.get_by_text(re.compile(r"^Last changed: "))).to_be_visible()
