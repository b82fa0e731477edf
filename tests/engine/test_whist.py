"""Full rotations (scores/whist.py and the planner's use of them): every pair partners exactly once and opposes exactly
twice; a night whose players change leaves the design for the planner's search, and says so."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from scores.engine import planner, whist
from scores.engine.planner import PlannedTable, Seating, plan_round

FULL = [5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28]


def _minus(x: int, y: int, moduli: tuple[int, ...]) -> int:
    return whist.add(x, whist.negative(y, moduli), moduli)


@pytest.mark.parametrize("count", sorted(whist.BASES))
def test_each_base_round_meets_the_difference_conditions(count):
    """What the search that found the base rounds asked for: the partner differences give every non-zero element of
    the group once, the opponent differences each twice (pairs with ∞ left out), and the round seats every point
    but 0 (4k + 1 players) or every element and ∞ (4k players)."""
    moduli, base = whist.BASES[count]
    order = 1
    for modulus in moduli:
        order *= modulus
    assert order == (count if count % 4 == 1 else count - 1)
    seated = sorted(p for table in base for p in table)
    assert seated == (list(range(1, order)) if count % 4 == 1 else [whist.INFINITY, *range(order)])
    partners: Counter[int] = Counter()
    opponents: Counter[int] = Counter()
    for a, b, c, d in base:
        for counts, pairs in ((partners, [(a, b), (c, d)]), (opponents, [(a, c), (a, d), (b, c), (b, d)])):
            for x, y in pairs:
                if whist.INFINITY not in (x, y):
                    counts.update((_minus(x, y, moduli), _minus(y, x, moduli)))
    assert partners == Counter(dict.fromkeys(range(1, order), 1))
    assert opponents == Counter(dict.fromkeys(range(1, order), 2))


def _met(rounds) -> tuple[Counter, Counter]:
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for r in rounds:
        for table in r.tables:
            partners.update(frozenset(pair) for pair in table.partners())
            opponents.update(frozenset(pair) for pair in table.opponents())
    return partners, opponents


def _night(players, rounds: int, seating: Seating, seed: int) -> list[planner.Round]:
    played: list[planner.Round] = []
    for _ in range(rounds):
        played.append(plan_round(players, [r.tables for r in played], seating=seating, seed=seed))
    return played


@pytest.mark.parametrize("count", FULL)
def test_a_full_rotation_partners_every_pair_once_and_opposes_it_twice(count):
    players = range(100, 100 + count)
    rounds = _night(players, whist.length(count), Seating(leftover="byes"), seed=count)
    assert len(rounds) == (count - 1 if count % 4 == 0 else count) <= planner.MAX_ROUNDS
    partners, opponents = _met(rounds)
    every_pair = [frozenset(pair) for pair in itertools.combinations(players, 2)]
    assert partners == Counter(dict.fromkeys(every_pair, 1))
    assert opponents == Counter(dict.fromkeys(every_pair, 2))
    for r in rounds:
        assert all(table.partnership and len(table.seats) == 4 for table in r.tables)
        assert sorted([p for table in r.tables for p in table.seats] + list(r.byes)) == list(players)
    byes = Counter(p for r in rounds for p in r.byes)
    # 4k + 1 players: each sits out exactly one round; 4k players: everyone plays every round.
    assert byes == (Counter(players) if count % 4 == 1 else Counter())
    quality = planner.quality([r.tables for r in rounds], players)
    assert quality == planner.Quality(pairs=len(every_pair), partnered=len(every_pair), partner_repeats=0, opponent_repeats=0)
    assert planner.rotation_kept([(r.tables, r.byes) for r in rounds], Seating(leftover="byes"), count) == len(rounds)


@pytest.mark.parametrize("count", FULL)
def test_a_night_shorter_than_a_full_rotation_repeats_no_partner_and_spreads_opponents(count):
    """Its first rounds are the design's, ordered so that opponents spread out: four rounds, none met three times."""
    rounds = _night(range(count), 4, Seating(leftover="byes"), seed=1)
    partners, opponents = _met(rounds)
    assert max(partners.values()) == 1
    assert max(opponents.values()) <= 2


def test_the_seed_draws_who_is_which_point_and_the_same_seed_gives_the_same_rotation():
    assert _night(range(12), 3, Seating(), seed=4) == _night(range(12), 3, Seating(), seed=4)
    assert _night(range(12), 3, Seating(), seed=4) != _night(range(12), 3, Seating(), seed=5)


def _still_designed(rounds: list[planner.Round], seating: Seating, seed: int) -> int:
    return planner.rotation_kept([(r.tables, r.byes) for r in rounds], seating, seed)


@pytest.mark.parametrize(("before", "after"), [(range(12), range(13)), (range(12), range(11)), (range(13), [*range(12), 20])])
def test_a_late_arrival_or_a_leaver_sends_the_rest_of_the_night_to_the_search(before, after):
    """Three rounds by the design, then someone arrives or leaves (or one leaves as another arrives): the next rounds
    are the search's, seated whole and still without a partner repeat; the night says it kept the design three rounds."""
    seating = Seating(leftover="byes")
    rounds = _night(before, 3, seating, seed=9)
    assert _still_designed(rounds, seating, 9) == 3
    for _ in range(3):
        r = plan_round(after, [r.tables for r in rounds], seating=seating, seed=9)
        assert sorted([p for t in r.tables for p in t.seats] + list(r.byes)) == sorted(after)
        rounds.append(r)
    assert _still_designed(rounds, seating, 9) == 3
    partners, _opponents = _met(rounds)
    assert max(partners.values()) == 1


def test_a_night_continued_from_its_stored_rounds_keeps_the_rotation():
    """The design is found again from the players and the seed: the rounds stored, the same players, the design goes on."""
    seating = Seating()
    rounds = _night(range(8), 2, seating, seed=2)
    rounds.append(plan_round(range(8), [r.tables for r in rounds], seating=seating, seed=2))
    assert rounds == _night(range(8), 3, seating, seed=2)
    assert _still_designed(rounds, seating, 2) == 3


def test_a_night_that_did_not_start_from_the_design_is_searched():
    """A stored night from before full rotations (or seated otherwise): the design does not take over mid-night."""
    history = [(PlannedTable((0, 1, 2, 3), ((0, 2), (1, 3))), PlannedTable((4, 5, 6, 7), ((4, 6), (5, 7))))]
    r = plan_round(range(8), history, seed=0)
    assert _still_designed([planner.Round(history[0]), r], Seating(), 0) == 0
    assert not any(frozenset(pair) in ({0, 2}, {1, 3}, {4, 6}, {5, 7}) for t in r.tables for pair in t.partners())


def test_the_quality_counts_pairs_partnered_and_repeats():
    tables = (PlannedTable((1, 2, 3, 4), ((1, 3), (2, 4))),)
    again = (PlannedTable((1, 2, 3, 4), ((1, 3), (2, 4))),)
    assert planner.quality([tables], [1, 2, 3, 4, 5]) == planner.Quality(pairs=10, partnered=2, partner_repeats=0, opponent_repeats=0)
    assert planner.quality([tables, again, again], [1, 2, 3, 4]) == planner.Quality(
        pairs=6, partnered=2, partner_repeats=2, opponent_repeats=4
    )
