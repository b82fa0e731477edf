"""Random hands scored by ``scores.rules``: the fixture the browser's scorer (``static/scores/scorer.js``) must match.

``cases`` deals several thousand hands across 2-7 players, partnership play and every house-rule combination,
from random totals (some near the target, so that going out and the house rules decide), with a few hands the
rules refuse. Each case carries what ``rules.score_hand`` made of it, in the shape ``scorer.js`` answers. The
browser test (``tests/test_browser_scorer.py``) generates it on every run, so the two can never drift apart.
"""

from __future__ import annotations

import itertools
import random

from . import rules

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
TEAMS = ("Us", "Them")
HOUSE_RULES = tuple(
    {"going_out": going_out, "min_bid": min_bid, "steal": steal, "smudge": smudge}
    for going_out, min_bid, steal, smudge in itertools.product(rules.GOING_OUT, rules.MIN_BIDS, (True, False), (False, True))
)


def table_json(table: rules.Table) -> dict:
    """A table as ``scorer.js`` takes it."""
    return {
        "seats": list(table.seats),
        "sides": list(table.sides),
        "teams": [{"name": team.name, "players": list(team.players)} for team in table.teams],
        "rules": table.rules.as_dict(),
    }


def _table(rng: random.Random, house: dict) -> rules.Table:
    target = rng.choice((1, 7, 7, 11, 15, 21, rng.randint(1, 99)))
    if rng.random() < 0.3:
        seats = NAMES[:4]
        teams = (rules.Team(TEAMS[0], (seats[0], seats[2])), rules.Team(TEAMS[1], (seats[1], seats[3])))
        return rules.Table(seats=seats, rules=rules.Rules(target=target, **house), teams=teams)
    return rules.Table(seats=NAMES[: rng.randint(rules.MIN_PLAYERS, rules.MAX_PLAYERS)], rules=rules.Rules(target=target, **house))


def _hand(rng: random.Random, table: rules.Table) -> dict:
    # A point may name a side, or in partnership play one of its players; now and then a name nobody has.
    names = list(table.sides) + (list(table.seats) if table.partnership else [])
    pitcher = rng.choice(table.seats)
    sweep = rng.random() < 0.25  # The pitcher's side wins every point: made bids, smudges and going out.

    def point(optional: bool) -> str | None:
        if optional and rng.random() < 0.2:
            return None
        if sweep:
            return table.side(pitcher) if rng.random() < 0.5 else pitcher
        return rng.choice(names)

    hand = {
        "pitcher": pitcher,
        "bid": rng.choice(rules.BIDS),  # Bids under a minimum of 2 are refused: the scorer must say so too.
        "high": point(False),
        "low": point(False),
        "jack": point(True),
        "game": point(True),
    }
    if rng.random() < 0.03:  # Something the rules refuse: an unseated name, a bid out of range, a missing point.
        field = rng.choice(("pitcher", "bid", "high", "low", "jack", "game"))
        hand[field] = rng.choice((0, 5)) if field == "bid" else rng.choice(("Zed", None) if field in ("high", "low") else ("Zed",))
    return hand


def expected(table: rules.Table, hand: dict, before: dict[str, int]) -> dict:
    """What the rules make of one hand, in ``scorer.js``'s shape."""
    try:
        scored = rules.score_hand(table, rules.Hand(**hand), number=1, dealer=table.seats[0], before=before)
    except rules.RulesError as error:
        return {"errors": sorted({problem.field for problem in error.problems if problem.field})}
    return {
        "pitcherSide": scored.pitcher_side,
        "won": dict(scored.won),
        "delta": dict(scored.delta),
        "totals": dict(scored.totals),
        "set": scored.set,
        "winner": scored.winner,
    }


def cases(count: int = 6000, seed: int = 14) -> list[dict]:
    """``count`` random hands, each {table, before, hand, expected}; every house-rule combination in turn."""
    rng = random.Random(seed)
    generated = []
    for i in range(count):
        table = _table(rng, HOUSE_RULES[i % len(HOUSE_RULES)])
        target = table.rules.target
        before = {side: rng.randint(-12, target + 2) if rng.random() < 0.5 else rng.randint(target - 5, target + 5) for side in table.sides}
        hand = _hand(rng, table)
        generated.append({"table": table_json(table), "before": before, "hand": hand, "expected": expected(table, hand, before)})
    return generated
