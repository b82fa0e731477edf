"""Who deals and who bids first on the phone is rules.py's word: the page's json_script carries the table's rotation
(``browser_table``), and offline.js's ``dealing`` reads it; checked in Chromium against rules.py."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.templatetags.static import static
from playwright.sync_api import Page, expect

from scores.engine import rules
from scores.table import selectors, services
from scores.table.scorer import browser_table
from tests.conftest import hand
from tests.table.test_browser_scoring import enter_hand, score

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")

RUN_ALL = """async ({url, cases}) => {
  const { dealing } = await import(url);
  return cases.map((c) => dealing(c.table, c.dealer, c.hands));
}"""


def expected(table: rules.Table, dealer: str, hands: int) -> dict:
    """Who deals after ``hands`` more hands, and who bids first then, by the rules engine."""
    for _ in range(hands):
        dealer = rules.next_dealer(table, dealer)
    return {"dealer": dealer, "firstBidder": table.bidding_order(dealer)[0]}


def tables(rng: random.Random) -> list[rules.Table]:
    """Every table size, in seat orders that are not the names' order, and partnership play."""
    made = []
    for count in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1):
        for _ in range(3):
            made.append(rules.Table(seats=tuple(rng.sample(NAMES, count))))
    seats = tuple(rng.sample(NAMES, 4))
    teams = (rules.Team("Us", (seats[0], seats[2])), rules.Team("Them", (seats[1], seats[3])))
    made.append(rules.Table(seats=seats, teams=teams, rules=rules.Rules(going_out="made_bid", min_bid=2, steal=False, smudge=True)))
    return made


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    """Generated from rules.py on every run: each table, each dealer, and up to twice round the table."""
    generated = []
    for table in tables(random.Random(21)):
        data = json.loads(json.dumps(browser_table(table)))  # As json_script writes it and the page parses it.
        for dealer in table.seats:
            for hands in range(2 * len(table.seats) + 1):
                generated.append({"table": data, "dealer": dealer, "hands": hands, "expected": expected(table, dealer, hands)})
    return generated


def test_the_browser_deals_round_the_table_as_the_rules_say(live_server, page: Page, cases):
    page.goto(live_server.url + "/rules/")
    results = page.evaluate(RUN_ALL, {"url": live_server.url + static("scores/offline.js"), "cases": cases})
    assert len(results) == len(cases) > 500
    wrong = [(c["table"]["seats"], c["dealer"], c["hands"], c["expected"], got) for c, got in zip(cases, results, strict=True)]
    wrong = [case for case in wrong if case[-1] != case[-2]]
    assert not wrong, f"{len(wrong)} deals differ from rules.py; the first: {wrong[0]}"
    assert {len(c["table"]["seats"]) for c in cases} == set(range(2, 8))


def test_the_game_page_carries_the_rotation_and_the_queue_follows_it(scorer_page: Page, live_server, league, context):
    page = scorer_page
    game = services.start_game(league=league, seats=["Eve", "Ann", "Dan", "Bob", "Cat"], code="five", rules=rules.Rules())
    for pitcher in ("Ann", "Bob"):
        services.record_hand(game=game, hand=hand(pitcher, 2, pitcher, pitcher))
    page.goto(live_server.url + game.get_absolute_url())
    state = selectors.load_game(game)
    # The page's own data, parsed as offline.js parses it, says what rules.py says about this table.
    data = page.evaluate("JSON.parse(document.getElementById('scorer-state').textContent)")
    assert data["seats"] == list(state.table.seats) and data["dealer"] == state.next_dealer == "Dan"
    assert data["next_dealer"] == {seat: rules.next_dealer(state.table, seat) for seat in state.table.seats}
    assert data["first_bidder"] == {seat: state.table.bidding_order(seat)[0] for seat in state.table.seats}
    expect(page.get_by_text("Dan deals, Bob bids first")).to_be_visible()  # The server's words for hand 3.
    # Offline, the next hands' dealers come from that data: after hand 3 (Dan's deal) Bob deals, then Cat.
    expect(page.locator("#offline[data-ready=true]")).to_have_count(1)
    context.set_offline(True)
    for number, pitcher in ((3, "Eve"), (4, "Ann")):
        enter_hand(page, pitcher, 2, pitcher, pitcher)
        page.get_by_role("button", name="Save hand").click()
        expect(page.locator("#history-body tr.waiting")).to_have_count(number - 2)
        dealer = expected(state.table, state.next_dealer, number - 2)
        expect(page.locator("#scoreboard .next-hand")).to_have_text(
            re.compile(rf"^Hand {number + 1} · {dealer['dealer']} deals, {dealer['firstBidder']} bids first$")
        )
    expect(score(page, "Ann")).to_have_text("4waiting")
    context.set_offline(False)
    expect(page.locator("#offline[data-sync=done]")).to_have_count(1)
    expect(page.get_by_text("Cat deals, Eve bids first")).to_be_visible()  # The server agrees once the hands are stored.
