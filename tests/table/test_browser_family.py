"""The Pitch family on a phone, in Chromium, by the words a player sees: every named variant and a custom one set up
on the new-game page and played; a whole game of each (set up, the auction, played, undone, edited, synced offline,
exported and imported back); and the 10-point hand form measured against the first screen.

Every score the page shows is checked against the rules engine's for the same hands.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scores.engine import rules
from scores.engine.problems import point_name
from scores.leagues.models import Role
from scores.table import selectors, services
from scores.table.models import Game
from scores.templatetags.house_rules import rules_line
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = {"390x844": {"width": 390, "height": 844}, "320x568": {"width": 320, "height": 568}}
SIX = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture
def browser_context_args(browser_context_args):
    # The service worker on, as on a real phone: it keeps the game page for offline (conftest blocks it).
    return {**browser_context_args, "service_workers": "allow"}


@pytest.fixture
def owner_page(live_server, page: Page, make_user, league) -> Page:
    """Logged in as the league's owner (who may import too), on the league's page."""
    make_user("olive", league, Role.OWNER)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Thursday Pitch").click()
    return page


def tap(page: Page, group: str, label: str) -> None:
    page.get_by_role("group", name=group, exact=True).get_by_text(label, exact=True).click()


def variant_label(variant: str) -> str:
    return "Custom" if variant == "custom" else variant


def start_game(page: Page, table: rules.Table, *, target: str | None = None, negative: bool = True) -> Game:
    """Fill in the new-game page for this table, as a player would, and start the game."""
    page.get_by_role("link", name="New game").click()
    for i, name in enumerate(table.seats, start=1):
        if i == 5:
            page.get_by_text("More new players").click()
        page.get_by_label(f"New player {i}", exact=True).fill(name)
    played = table.rules
    tap(page, "Variant", variant_label(played.variant))
    if played.variant == "custom":
        points = page.get_by_role("group", name="Points in a custom game")
        for key, point in rules.CATALOGUE.items():
            label = point_name(key) if point.value == 1 else f"{point_name(key)} ({point.value})"
            if points.get_by_role("checkbox", name=label, exact=True).is_checked() != (key in played.points):
                points.get_by_text(label, exact=True).click()
        expect(points.locator("output")).to_have_text(str(played.total))
    if table.teams:
        count, size = len(table.teams), len(table.teams[0].players)
        tap(page, "Play", f"{count} teams of {size}")
        for i, team in enumerate(table.teams, start=1):
            page.get_by_label(f"Name of team {i}").fill(team.name)
        seating = page.get_by_role("region", name="Seating")
        first = table.teams[0]
        expect(seating.get_by_text(f"Seat 1: {first.players[0]} ({first.name}), deals first")).to_be_visible()
    if target:
        tap(page, "Play to", target)
    if not negative:
        page.get_by_text("House rules").click()
        tap(page, "Negative scores", "Not allowed: a set stops at 0")
    expect(page.locator(".rules-line")).to_contain_text(f"{variant_label(played.variant)}")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    return Game.objects.latest("pk")


def enter_hand(page: Page, table: rules.Table, hand: rules.Hand, *, rest: str | None = None) -> None:
    """Tap the hand: pitcher, bid, each point by its name; with ``rest``, the points not given are tapped by "Rest to…"."""
    tap(page, "Pitcher", hand.pitcher)
    tap(page, "Bid", str(hand.bid))
    for key, side in hand.points.items():
        if rest is not None and side == rest:
            continue
        missing = "Tied" if key == "game" else "Not in play"
        tap(page, point_name(key), table.side(side) if side else missing)
    if rest is not None:
        page.get_by_role("button", name="Rest to…").click()
        page.get_by_role("group", name="Every point not tapped yet goes to").get_by_role("button", name=rest, exact=True).click()


def settled(page: Page) -> None:
    """htmx has taken in the answer it swapped: until then a new form's tap would post the page without htmx."""
    expect(page.locator(".htmx-added")).to_have_count(0)


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".result-line")).to_contain_text(f"Hand {number}:")
    settled(page)


def shown_totals(page: Page, table: rules.Table) -> dict[str, str]:
    cells = page.locator(".scoreboard tr")
    expect(cells).to_have_count(len(table.sides))
    return {side: cells.nth(i).locator(".total").inner_text() for i, side in enumerate(table.sides)}


def expect_totals(page: Page, table: rules.Table, hands: list[rules.Hand]) -> dict[str, int]:
    """The scoreboard says what the rules engine says for these hands."""
    totals = dict(rules.replay(table, hands).totals) if hands else dict.fromkeys(table.sides, 0)
    rows = page.locator(".scoreboard tr")
    for i, side in enumerate(table.sides):
        expect(rows.nth(i).locator(".total")).to_have_text(str(totals[side]))
    return totals


def some_points(table: rules.Table, pitcher_side: str, other: str) -> dict[str, str | None]:
    """Most points to the pitcher's side, one to another side, a card not in play where one may be missing."""
    kinds = table.rules.kinds
    missing = next((p.key for p in kinds if p.optional and p.key != "game"), None)
    points: dict[str, str | None] = {}
    for i, point in enumerate(kinds):
        points[point.key] = None if point.key == missing else (other if i == 1 else pitcher_side)
    return points


def hand_for(table: rules.Table, pitcher: str, bid: int, *, other: str) -> rules.Hand:
    return rules.Hand(pitcher=pitcher, bid=bid, points=some_points(table, table.side(pitcher), table.side(other)))


# Every variant, set up and played for a hand --------------------------------------------------------------------

CUSTOM = rules.Rules(variant="custom", points=("high", "low", "off_ace", "off_three", "five", "game"))
EVERY_VARIANT = [
    pytest.param(rules.Rules(variant=name), PHONES["320x568" if i % 3 == 2 else "390x844"], id=f"{name}-{'320' if i % 3 == 2 else '390'}")
    for i, name in enumerate(rules.VARIANTS)
] + [pytest.param(CUSTOM, PHONES["390x844"], id="custom-390")]


@pytest.mark.parametrize(("played", "phone"), EVERY_VARIANT)
def test_every_variant_is_set_up_on_the_new_game_page_and_scores_a_hand_as_the_engine(owner_page: Page, played, phone):
    page = owner_page
    page.set_viewport_size(phone)
    table = rules.Table(seats=("Ann", "Bob", "Cat"), rules=played)
    game = start_game(page, table)
    assert game.rules == played
    expect(page.locator("#house-rules")).to_have_text(rules_line(played))
    # Bob bids first (Ann deals): the bids run from the variant's minimum to its total.
    bids = page.get_by_role("group", name="Bid", exact=True).get_by_role("radio")
    expect(bids).to_have_count(len(played.bids))
    hand = hand_for(table, "Bob", played.total - 1, other="Cat")
    enter_hand(page, table, hand)
    save(page, 1)
    expect_totals(page, table, [hand])
    assert dict(selectors.load_game(game).replay().totals) == dict(rules.replay(table, [hand]).totals)
    # Each point the game plays is written in the history row, as players name it.
    row = page.locator("#history-body tr").first
    for key in played.points:
        expect(row).to_contain_text(f"{point_name(key)}:")
    assert page.evaluate("document.documentElement.scrollWidth") <= phone["width"]


# A whole game of every variant -----------------------------------------------------------------------------------


def team_table(played: rules.Rules, seats: tuple[str, ...], names: tuple[str, ...]) -> rules.Table:
    """Partners seated as the rules want them: every len(names) seats."""
    teams = tuple(rules.Team(name, players) for name, players in zip(names, rules.partners(seats, len(names)), strict=True))
    return rules.Table(seats=seats, rules=played, teams=teams)


def variant_table(name: str, shape: str) -> rules.Table:
    played = rules.Rules(variant=name)
    match shape:
        case "2x2":
            return team_table(played, tuple(SIX[:4]), ("Red", "Blue"))
        case "3x2":
            return team_table(played, tuple(SIX), ("Red", "Blue", "Gold"))
        case "2x3":
            return team_table(played, tuple(SIX), ("Odd", "Even"))
    return rules.Table(seats=tuple(SIX[: int(shape.removeprefix("solo-"))]), rules=played)


# Every named variant once, the table shapes spread over them, and a table's own mix of points: two teams of three, no
# negative scores, to 21 (its usual 7 is less than one hand's 8 points, and the edited first hand would win the game).
JOURNEY_SHAPES = {
    "4-point": "solo-3",
    "5-point": "2x2",
    "6-point": "3x2",
    "7-point": "2x3",
    "8-point": "solo-4",
    "9-point": "2x2",
    "10-point": "3x2",
    "11-point": "solo-5",
    "13-point": "2x2",
}
assert list(JOURNEY_SHAPES) == list(rules.VARIANTS)
JOURNEYS = [pytest.param(variant_table(name, shape), id=f"{name}-{shape}") for name, shape in JOURNEY_SHAPES.items()] + [
    pytest.param(
        team_table(
            rules.Rules(variant="custom", points=("high", "low", "jack", "joker", "three", "game"), target=21, negative=False),
            tuple(SIX),
            ("Odd", "Even"),
        ),
        id="custom-2x3-no-negative",
    )
]


def rest_to(page: Page, side: str) -> None:
    page.get_by_role("button", name="Rest to…").click()
    page.get_by_role("group", name="Every point not tapped yet goes to").get_by_role("button", name=side, exact=True).click()


def next_hand(table: rules.Table, dealer: str, bid: int) -> rules.Hand:
    """The first bidder after ``dealer`` pitches ``bid`` and takes most points; a player of another side takes one."""
    pitcher = table.bidding_order(dealer)[0]
    return hand_for(table, pitcher, bid, other=next(s for s in table.seats if table.side(s) != table.side(pitcher)))


def history_rows(page: Page, count: int) -> list[str]:
    rows = page.locator("#history-body tr")
    expect(rows).to_have_count(count)
    return rows.all_inner_texts()


# Kept whole (PLR0915): one journey on one phone, each step starting where the last left the page.
@pytest.mark.parametrize("table", JOURNEYS)
def test_a_whole_game_of_every_variant_on_a_phone(live_server, owner_page: Page, context: BrowserContext, table: rules.Table):  # noqa: PLR0915
    """Set up on the new-game page, the auction, played (with "Rest to…" where the form has it), undone, edited,
    played offline (a hand synced, and one another phone took first, from "Not synced"), exported and imported into
    another league: at every step the scores the phone shows are the rules engine's, and the server's."""
    page = owner_page
    page.set_viewport_size(PHONES["390x844"])
    played = table.rules
    usual = rules.VARIANTS.get(played.variant, rules.CUSTOM).target
    game = start_game(page, table, target=None if played.target == usual else str(played.target), negative=played.negative)
    assert game.rules == played
    # The deal rotation of the game as stored (Ann deals first): the auction in place, with the top bid ending it.
    state = selectors.load_game(game)
    table = state.table
    dealers = [state.next_dealer]
    for _ in range(5):
        dealers.append(rules.next_dealer(table, dealers[-1]))
    order = table.bidding_order(dealers[0])
    top = played.total
    page.get_by_role("link", name="Enter the auction").click()
    first_bid = played.bids[0]
    page.get_by_role("navigation", name=f"{order[0]} bids").get_by_role("link", name=str(first_bid), exact=True).click()
    page.get_by_role("navigation", name=f"{order[1]} bids").get_by_role("link", name=str(top), exact=True).click()
    expect(page.get_by_text(f"{order[1]} is the pitcher with a bid of {top}.")).to_be_visible()
    expect(page.get_by_role("group", name="Pitcher", exact=True).get_by_role("radio", name=order[1])).to_be_checked()
    pitcher_side = table.side(order[1])
    others = [side for side in table.sides if side != pitcher_side]
    # Hand 1: set back, one point gone elsewhere; the rest by "Rest to…" where the form offers it (more than 4 points).
    one_away = dict.fromkeys(played.points, pitcher_side) | {played.points[0]: others[0]}
    hand1 = rules.Hand(pitcher=order[1], bid=top, points=one_away, bids=((order[0], first_bid), (order[1], top)))
    if len(played.points) > 4:
        tap(page, point_name(played.points[0]), others[0])
        rest_to(page, pitcher_side)
    else:
        for key, side in one_away.items():
            tap(page, point_name(key), side)
    save(page, 1)
    hands = [hand1]
    totals = expect_totals(page, table, hands)
    assert totals[pitcher_side] == (-top if played.negative else 0)

    # Hand 2, tapped point by point; undone (the scores go back to hand 1's), and played again.
    hand2 = next_hand(table, dealers[1], played.bids[0])
    enter_hand(page, table, hand2)
    save(page, 2)
    expect_totals(page, table, [*hands, hand2])
    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_role("button", name="Restore")).to_be_visible()
    settled(page)
    assert expect_totals(page, table, hands) == totals
    enter_hand(page, table, hand2, rest=table.side(hand2.pitcher) if len(played.points) > 4 else None)
    save(page, 2)
    hands.append(hand2)
    expect_totals(page, table, hands)

    # Hand 1 edited: the point that went elsewhere was not in play (or, where it may not be missing, the pitcher's).
    first = played.kinds[0]
    page.get_by_role("link", name="Edit hand 1").click()
    tap(page, point_name(first.key), "Not in play" if first.optional else pitcher_side)
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_text("Hand 3", exact=True)).to_be_visible()
    hands[0] = rules.Hand(
        pitcher=hand1.pitcher, bid=hand1.bid, bids=hand1.bids, points=hand1.points | {first.key: None if first.optional else pitcher_side}
    )
    expect_totals(page, table, hands)

    # Offline: the hand waits on the phone, scored there; back online, the server stores it with the same scores.
    page.reload()
    expect(page.locator("#offline[data-ready=true]")).to_have_count(1)
    hand3 = next_hand(table, dealers[2], played.bids[0])
    context.set_offline(True)
    enter_hand(page, table, hand3)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("status").filter(has_text="Offline")).to_have_text("Offline · 1 hand waiting to sync")
    waiting = page.get_by_role("row").filter(has_text=f"{hand3.pitcher} bid {hand3.bid}")
    expect(waiting).to_contain_text("waiting")
    phone = dict(rules.replay(table, [*hands, hand3]).totals)
    rows = page.locator(".scoreboard tr")
    for i, side in enumerate(table.sides):
        expect(rows.nth(i).locator(".total")).to_have_text(f"{phone[side]}waiting")
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    hands.append(hand3)
    assert expect_totals(page, table, hands) == phone
    assert dict(selectors.load_game(game).replay().totals) == phone
    expect(page.get_by_text("waiting", exact=False)).to_have_count(0)

    # Offline again, while another phone records hand 4 first: this phone's goes to "Not synced", and is saved next.
    # Both bid the top and are set back (a point goes elsewhere), so that neither ends the game.
    context.set_offline(True)
    mine = next_hand(table, dealers[4], top)
    enter_hand(page, table, mine)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("status").filter(has_text="Offline")).to_have_text("Offline · 1 hand waiting to sync")
    theirs = next_hand(table, dealers[3], top)
    services.record_hand(game=game, hand=theirs)
    context.set_offline(False)
    not_synced = page.get_by_role("region", name="Not synced")
    expect(not_synced).to_contain_text(f"Hand 4 · {mine.pitcher} bid {mine.bid}")
    expect(not_synced).to_contain_text("Hand 4 was already recorded.")
    hands.append(theirs)
    expect_totals(page, table, hands)
    not_synced.get_by_role("button", name="Save as the next hand").click()
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    expect(not_synced).to_be_hidden()
    hands.append(mine)
    final = expect_totals(page, table, hands)
    assert rules.replay(table, hands).winner is None  # The game goes on: every step above had its form.
    assert dict(selectors.load_game(game).replay().totals) == final
    shown = history_rows(page, len(hands))

    # Exported from the game's page, and imported through the upload into a new league: the same hands and scores.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download JSON").click()
    exported = json.loads(download.value.path().read_text())
    exported_rules = exported["games"][0]["rules"]
    assert exported["version"] == 2 and {key: exported_rules[key] for key in played.as_dict()} == played.as_dict()
    page.get_by_role("link", name="Pitch League").click()
    page.get_by_role("link", name="New league").click()
    page.get_by_label("League name").fill("Cabin")
    page.get_by_role("button", name="Create league").click()
    page.get_by_role("link", name="Import games").click()
    page.get_by_label("History file (JSON)").set_input_files(download.value.path())
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("Imported 1 game.")).to_be_visible()
    page.get_by_role("link", name="Cabin", exact=True).click()
    page.get_by_role("link").filter(has_text="In progress").click()
    imported = Game.objects.get(league__name="Cabin")
    assert imported.rules == played
    expect(page.locator("#house-rules")).to_have_text(rules_line(played))
    assert history_rows(page, len(hands)) == shown
    assert expect_totals(page, table, hands) == final
    assert dict(selectors.load_game(imported).replay().totals) == final
    with page.expect_download() as again:
        page.get_by_role("link", name="Download JSON").click()
    assert json.loads(again.value.path().read_text())["games"] == exported["games"]


# The 10-point hand form on the first screen -----------------------------------------------------------------------

TEN = rules.Rules(variant="10-point")


def form_boxes(page: Page) -> dict:
    """The boxes that matter, as the page lays them out: the sticky scoreboard, each row of the form, Save hand."""
    return page.evaluate(
        """() => {
            const box = (el) => {
                const b = el.getBoundingClientRect();
                return {top: b.top, bottom: b.bottom, left: b.left, right: b.right};
            };
            const form = document.getElementById("hand");
            return {
                viewport: {height: innerHeight, width: document.documentElement.clientWidth},
                scoreboard: box(document.getElementById("scoreboard")),
                rows: [...form.querySelectorAll("fieldset.taps")]
                    .map((row) => ({name: row.querySelector("legend").textContent, ...box(row)})),
                save: box(form.querySelector("button.save")),
                scrolled: scrollY,
            };
        }"""
    )


def assert_on_the_first_screen(boxes: dict) -> None:
    height, below = boxes["viewport"]["height"], boxes["scoreboard"]["bottom"]
    names = [row["name"] for row in boxes["rows"]]
    assert names[:2] == ["Pitcher", "Bid"] and len(names) == 2 + len(TEN.points)
    for part in [*boxes["rows"], boxes["save"]]:
        assert part["top"] >= below, (part, below)  # Not under the sticky scoreboard.
        assert part["bottom"] <= height, (part, height)  # Not below the screen.
        assert part["right"] <= boxes["viewport"]["width"]


@pytest.mark.parametrize(
    ("seats", "teams"),
    [
        (("Ann", "Bob", "Cat", "Dan"), (rules.Team("Red", ("Ann", "Cat")), rules.Team("Blue", ("Bob", "Dan")))),
        (("Ann", "Bob", "Cat", "Dan"), ()),
    ],
    ids=["partnership", "solo-of-four"],
)
def test_the_10_point_hand_form_is_on_the_first_screen_at_390x844_under_the_scoreboard(owner_page: Page, seats, teams):
    page = owner_page
    page.set_viewport_size(PHONES["390x844"])
    table = rules.Table(seats=seats, rules=TEN, teams=teams)
    start_game(page, table)
    boxes = form_boxes(page)
    assert boxes["scrolled"] == 0
    assert_on_the_first_screen(boxes)
    # After a save too, with the saved hand's line above the scores, and without a scroll.
    enter_hand(page, table, hand_for(table, "Bob", 5, other="Ann"))
    save(page, 1)
    boxes = form_boxes(page)
    assert boxes["scrolled"] == 0
    assert_on_the_first_screen(boxes)
    expect(page.get_by_role("button", name="Rest to…")).to_be_in_viewport()
