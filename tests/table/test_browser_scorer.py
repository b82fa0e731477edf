"""The browser's scorer (static/scores/scorer.js) agrees with the rules engine on thousands of generated hands, and
seats partners as it does."""

from __future__ import annotations

import collections

import pytest
from django.templatetags.static import static
from playwright.sync_api import Page

from scores.engine import rules
from tests import scorer_fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The module is imported as the app serves it, and run over every case in one go.
RUN_ALL = """async ({url, cases}) => {
  const { scoreHand } = await import(url);
  return cases.map((c) => {
    const got = scoreHand(c.table, c.hand, c.before, c.number);
    return got.errors ? { errors: [...new Set(got.errors)].sort() } : got;
  });
}"""


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    """Generated from scores/engine/rules.py on every run: the JS cannot drift from the engine unnoticed."""
    return scorer_fixture.cases()


def _shape(table: dict) -> tuple[int, int] | int:
    """(teams, players in each) for partnership play, else the number of players."""
    teams = table["teams"]
    return (len(teams), len(teams[0]["players"])) if teams else len(table["seats"])


def _outcome(case: dict) -> str | tuple[bool, bool]:
    expected = case["expected"]
    return "refused" if "errors" in expected else (expected["set"], expected["winner"] is not None)


def _total(case: dict) -> int:
    return rules.Rules(**case["table"]["rules"]).total


def _by_variant(cases: list[dict]) -> dict[str, list[dict]]:
    grouped = collections.defaultdict(list)
    for case in cases:
        grouped[case["table"]["rules"]["variant"]].append(case)
    return grouped


def test_the_fixture_covers_every_variant_table_and_house_rule(cases):
    by_variant = _by_variant(cases)
    assert set(by_variant) == {*rules.VARIANTS, "custom"}
    custom_sets = {tuple(c["table"]["rules"]["points"]) for c in by_variant["custom"]}
    assert len(custom_sets) > 200 and min(map(len, custom_sets)) == 1 and max(map(len, custom_sets)) >= 12
    for name, variant in rules.VARIANTS.items():
        assert {tuple(c["table"]["rules"]["points"]) for c in by_variant[name]} == {variant.points}
    shapes = collections.Counter(_shape(c["table"]) for c in cases)
    assert set(shapes) == {*range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1), *rules.TEAM_SHAPES}
    assert min(shapes[shape] for shape in rules.TEAM_SHAPES) > 500
    house = collections.Counter(
        (c["table"]["rules"]["variant"], *(c["table"]["rules"][key] for key in ("going_out", "steal", "smudge", "negative"))) for c in cases
    )
    assert len(house) == len(scorer_fixture.VARIANTS) * len(scorer_fixture.HOUSE_RULES) == 160
    for name, variant_cases in by_variant.items():
        # Minimum bids from 1 to the top bid, and between.
        min_bids = {(c["table"]["rules"]["min_bid"], _total(c)) for c in variant_cases}
        assert {min_bid for min_bid, _total in min_bids} >= {1, 2}, name
        assert any(1 < min_bid == top for min_bid, top in min_bids) and any(2 < min_bid < top for min_bid, top in min_bids), name


def test_the_fixture_has_every_outcome_in_every_variant(cases):
    for name, variant_cases in _by_variant(cases).items():
        outcomes = collections.Counter(_outcome(c) for c in variant_cases)
        # Made and set, with and without going out (a set pitcher goes out only under going_out "pitcher"), and refusals.
        assert len(outcomes) == 5 and min(outcomes.values()) >= 5, (name, outcomes)
        scored = [c for c in variant_cases if "errors" not in c["expected"]]
        # A made smudge below the target wins: the top bid and every point of the variant.
        smudges = [
            c
            for c in scored
            if c["table"]["rules"]["smudge"]
            and "hands" not in c["table"]["rules"]
            and c["hand"]["bid"] == _total(c)
            and c["expected"]["won"][c["expected"]["pitcherSide"]] == c["hand"]["bid"]
            and c["expected"]["totals"][c["expected"]["pitcherSide"]] < c["table"]["rules"]["target"]
        ]
        assert smudges and all(c["expected"]["winner"] for c in smudges), name
        # No negative scores: a set that would go below 0 stops at 0, delta what it changed by.
        floored = [
            c
            for c in scored
            if not c["table"]["rules"]["negative"]
            and c["expected"]["set"]
            and c["expected"]["delta"][c["expected"]["pitcherSide"]] > -c["hand"]["bid"]
        ]
        assert floored and all(c["expected"]["totals"][c["expected"]["pitcherSide"]] == 0 for c in floored), name
        assert all(min(c["expected"]["totals"].values()) >= 0 for c in scored if not c["table"]["rules"]["negative"])
        # A side at the target that did not win says why: it did not pitch, or (going out by the bid) its pitcher was set.
        reasons = collections.Counter(reason for c in scored for reason in c["expected"]["notOut"].values())
        assert reasons["not_pitcher"] >= 5 and reasons["set"] >= 1, (name, reasons)


def test_the_fixture_has_games_of_a_number_of_hands_won_going_on_and_tied(cases):
    played = [c for c in cases if "hands" in c["table"]["rules"] and "errors" not in c["expected"]]
    over = [c for c in played if c["number"] >= c["table"]["rules"]["hands"]]
    won = [c for c in over if c["expected"]["winner"] is not None]
    tied = [c for c in over if c["expected"]["winner"] is None]
    assert len(won) >= 100 and len(tied) >= 20 and len(played) - len(over) >= 100
    assert all(c["expected"]["notOut"] == {} for c in played)
    # The side ahead wins, whoever pitched: some winners did not pitch.
    assert any(c["expected"]["winner"] != c["expected"]["pitcherSide"] for c in won)
    assert all(max(c["expected"]["totals"].values()) == c["expected"]["totals"][c["expected"]["winner"]] for c in won)


def test_the_fixture_has_every_kind_of_refusal(cases):
    fields = collections.Counter(field for c in cases for field in c["expected"].get("errors", ()))
    assert {"pitcher", "bid", "points", "high", "low"} <= set(fields)
    assert {field for field in fields if field in rules.CATALOGUE} == set(rules.CATALOGUE)
    given = [c["hand"]["points"] for c in cases if c["expected"].get("errors") == ["points"]]
    assert any(not isinstance(points, dict) for points in given)
    assert any(isinstance(points, dict) and set(points) - set(rules.CATALOGUE) for points in given)  # A key no catalogue has.


def test_the_browser_scorer_agrees_with_the_rules_on_every_generated_hand(live_server, page: Page, cases):
    page.goto(live_server.url + "/rules/")
    results = page.evaluate(RUN_ALL, {"url": live_server.url + static("scores/scorer.js"), "cases": cases})
    assert len(results) == len(cases) >= 9000
    wrong = [
        (c["table"], c["before"], c["hand"], c["expected"], got) for c, got in zip(cases, results, strict=True) if got != c["expected"]
    ]
    assert not wrong, f"{len(wrong)} hands scored differently from rules.py; the first: {wrong[0]}"
