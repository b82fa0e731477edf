"""The browser's scorer (static/scores/scorer.js) agrees with the rules engine on thousands of generated hands."""

from __future__ import annotations

import collections

import pytest
from django.templatetags.static import static
from playwright.sync_api import Page

from scores import scorer_fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The module is imported as the app serves it, and run over every case in one go.
RUN_ALL = """async ({url, cases}) => {
  const { scoreHand } = await import(url);
  return cases.map((c) => {
    const got = scoreHand(c.table, c.hand, c.before);
    return got.errors ? { errors: [...new Set(got.errors)].sort() } : got;
  });
}"""


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    """Generated from scores/rules.py on every run: the JS cannot drift from the engine unnoticed."""
    return scorer_fixture.cases()


def test_the_fixture_covers_every_player_count_partnerships_and_house_rule(cases):
    tables = collections.Counter((len(c["table"]["seats"]), bool(c["table"]["teams"])) for c in cases)
    assert {seats for seats, _teams in tables} == set(range(2, 8))
    assert tables[4, True] > 500
    house = collections.Counter(tuple(sorted((k, v) for k, v in c["table"]["rules"].items() if k != "target")) for c in cases)
    assert len(house) == len(scorer_fixture.HOUSE_RULES) == 16
    outcomes = collections.Counter(
        "refused" if "errors" in c["expected"] else (c["expected"]["set"], c["expected"]["winner"] is not None) for c in cases
    )
    # Made and set, with and without going out (a set pitcher goes out only under going_out "pitcher"), and refusals.
    assert min(outcomes.values()) >= 50 and len(outcomes) == 5
    smudges = [
        c
        for c in cases
        if c["table"]["rules"]["smudge"]
        and c["hand"]["bid"] == 4
        and c["expected"].get("won", {}).get(c["expected"].get("pitcherSide")) == 4
    ]
    assert any(c["before"][c["expected"]["pitcherSide"]] + 4 < c["table"]["rules"]["target"] and c["expected"]["winner"] for c in smudges)


def test_the_browser_scorer_agrees_with_the_rules_on_every_generated_hand(live_server, page: Page, cases):
    page.goto(live_server.url + "/rules/")
    results = page.evaluate(RUN_ALL, {"url": live_server.url + static("scores/scorer.js"), "cases": cases})
    assert len(results) == len(cases) >= 5000
    wrong = [
        (c["table"], c["before"], c["hand"], c["expected"], got) for c, got in zip(cases, results, strict=True) if got != c["expected"]
    ]
    assert not wrong, f"{len(wrong)} hands scored differently from rules.py; the first: {wrong[0]}"
