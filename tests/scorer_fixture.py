"""Random hands scored by ``scores.engine.rules``: the fixture the browser's scorer (``static/scores/scorer.js``) must match.

``cases`` deals hands (each with its number) in every named variant and in custom games of random points (one point to the whole
catalogue), at solo tables of 2-7 players and in every team shape, under every combination of the house rules
(going out, steal, smudge, negative scores) in every variant, with minimum bids from 1 to the top bid, some played to a
number of hands. The totals
before a hand are random, some near the target, so that going out, smudges and the floor at 0 decide; a few hands
are ones the rules refuse. Each case carries what ``rules.score_hand`` made of it, in the shape ``scorer.js``
answers. The browser test (``tests/table/test_browser_scorer.py``) generates them on every run, so the two never drift.
"""

from __future__ import annotations

import itertools
import random

from scores.engine import rules

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
TEAM_NAMES = ("Us", "Them", "Others")
VARIANTS = (*rules.VARIANTS, rules.CUSTOM.name)
HOUSE_RULES = tuple(
    {"going_out": going_out, "steal": steal, "smudge": smudge, "negative": negative}
    for going_out, steal, smudge, negative in itertools.product(rules.GOING_OUT, (True, False), (False, True), (True, False))
)
SHAPES = (None, None, None, *rules.TEAM_SHAPES)  # None: solo play, for 2 to 7 players.


def _rules(rng: random.Random, variant: str, house: dict) -> rules.Rules:
    if variant == rules.CUSTOM.name:
        size = 1 if rng.random() < 0.1 else rng.randint(1, len(rules.CATALOGUE))
        base = rules.Rules(variant=variant, points=rng.sample(list(rules.CATALOGUE), size))
    else:
        base = rules.Rules(variant=variant)
    total = base.total
    min_bid = rng.choice((base.min_bid, base.min_bid, 1, min(2, total), rng.randint(1, total), total))
    target = rng.choice((base.target, base.target, 1, rng.randint(1, 60), rng.randint(1, rules.MAX_TARGET)))
    # Some games of a number of hands, where the hand's number and the lead decide instead of the target.
    hands = rng.randint(rules.MIN_HANDS, 10) if rng.random() < 0.2 else None
    return rules.Rules(variant=variant, points=base.points, target=target, min_bid=min_bid, hands=hands, **house)


def _table(rng: random.Random, game_rules: rules.Rules) -> rules.Table:
    shape = rng.choice(SHAPES)
    if shape is None:
        return rules.Table(seats=NAMES[: rng.randint(rules.MIN_PLAYERS, rules.MAX_PLAYERS)], rules=game_rules)
    count, size = shape
    seats = tuple(rng.sample(NAMES, count * size))
    teams = [rules.Team(TEAM_NAMES[i], players) for i, players in enumerate(rules.partners(seats, count))]
    rng.shuffle(teams)  # The sides' order is the teams', not the seats'.
    return rules.Table(seats=seats, rules=game_rules, teams=tuple(teams))


def _hand(rng: random.Random, table: rules.Table) -> dict:
    # A point may name a side, or in partnership play one of its players.
    names = list(table.sides) + (list(table.seats) if table.partnership else [])
    game_rules = table.rules
    pitcher = rng.choice(table.seats)
    sweep = rng.random() < 0.3  # The pitcher's side wins every point: made bids, smudges and going out.
    every = sweep and rng.random() < 0.5  # ... and every point is in play: a smudge, when the bid is the top bid.
    points: dict[str, str | None] = {}
    for point in game_rules.kinds:
        if point.optional and not every and rng.random() < 0.2:
            points[point.key] = None
        elif sweep:
            points[point.key] = table.side(pitcher) if rng.random() < 0.5 else pitcher
        else:
            points[point.key] = rng.choice(names)
    if sweep and rng.random() < 0.5:
        bid = game_rules.total
    elif rng.random() < 0.85:
        bid = min(rng.choice(game_rules.bids), rng.choice(game_rules.bids))  # Low bids are the common ones.
    else:
        bid = rng.randint(1, game_rules.total)  # Below a minimum bid it is refused: the scorer must say so too.
    hand = {"pitcher": pitcher, "bid": bid, "points": points}
    if rng.random() < 0.06:
        _break(rng, table, hand)
    return hand


def _break(rng: random.Random, table: rules.Table, hand: dict) -> None:
    """Something the rules refuse: an unseated name, a bid out of range, a missing, extra or null point, no points."""
    points = hand["points"]
    keys = list(points)
    required = [point.key for point in table.rules.kinds if not point.optional]
    others = [key for key in rules.CATALOGUE if key not in points]
    match rng.choice(("pitcher", "bid", "name", "name", "null", "missing", "extra", "shape")):
        case "pitcher":
            hand["pitcher"] = "Zed"
        case "bid":
            hand["bid"] = rng.choice((0, table.rules.total + 1, "2", True, 2.5))
        case "name":
            points[rng.choice(keys)] = "Zed"
        case "null" if required:
            points[rng.choice(required)] = None
        case "missing" | "null":
            del points[rng.choice(keys)]
        case "extra":
            points[rng.choice((*others, "trump"))] = rng.choice((None, hand["pitcher"]))  # "trump": no catalogue has it.
        case "shape":
            hand["points"] = rng.choice((None, keys, "high"))


def expected(table: rules.Table, hand: dict, before: dict[str, int], number: int = 1) -> dict:
    """What the rules make of hand ``number``, in ``scorer.js``'s shape."""
    try:
        scored = rules.score_hand(table, rules.Hand(**hand), number=number, dealer=table.seats[0], before=before)
    except rules.RulesError as error:
        return {"errors": sorted({problem.field for problem in error.problems if problem.field})}
    return {
        "pitcherSide": scored.pitcher_side,
        "points": dict(scored.points),
        "won": dict(scored.won),
        "delta": dict(scored.delta),
        "totals": dict(scored.totals),
        "set": scored.set,
        "winner": scored.winner,
        "notOut": rules.not_out(table.rules, scored.totals, pitcher_side=scored.pitcher_side, winner=scored.winner),
    }


def cases(count: int = 9600, seed: int = 22) -> list[dict]:
    """``count`` random hands, each {table, before, hand, expected}: every variant under every house-rule
    combination in turn."""
    rng = random.Random(seed)
    combinations = list(itertools.product(VARIANTS, HOUSE_RULES))
    generated = []
    for i in range(count):
        variant, house = combinations[i % len(combinations)]
        table = _table(rng, _rules(rng, variant, house))
        target, top = table.rules.target, table.rules.total
        # Some near the target, where a set pitcher's side may still be at it.
        near = (target - 5, target + top + 2)
        before = {side: rng.randint(-12, target + 2) if rng.random() < 0.5 else rng.randint(*near) for side in table.sides}
        if not table.rules.negative:  # No total is below 0 in such a game.
            before = {side: max(0, total) for side, total in before.items()}
        hand = _hand(rng, table)
        hands = table.rules.hands
        # Before, at and past the last hand of a game of hands, where ties (equal totals) are likeliest at small numbers.
        number = rng.randint(max(1, hands - 2), hands + 2) if hands is not None else rng.randint(1, 30)
        if hands is not None and rng.random() < 0.3:
            before = dict.fromkeys(table.sides, rng.randint(0, 5))
        case = {"table": table.as_dict(), "before": before, "hand": hand, "number": number}
        generated.append({**case, "expected": expected(table, hand, before, number)})
    return generated
