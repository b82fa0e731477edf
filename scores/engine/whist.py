"""Whist tournament designs: the rounds of a card night in which every pair of players partners exactly once and
opposes exactly twice (a "full rotation"), as pure Python, for ``scores.engine.planner``.

A whist tournament Wh(v) seats v players, v ≡ 0 or 1 (mod 4), at tables of four, two partners against two: v - 1
rounds of v/4 tables (v ≡ 0), or v rounds of (v - 1)/4 tables with one player sitting out each round (v ≡ 1).
Over its rounds every pair partners exactly once and opposes exactly twice. They exist for every such v (R. D.
Baker, "Whist tournaments", 1975; I. Anderson, "Combinatorial Designs and Tournaments", 1997; R. J. R. Abel and
G. Ge; complete tables for small v by J. D. A. Wiseman, "individual pairs" tournaments).

Each design here is made the usual way, from one base round developed over an abelian group G:

- v ≡ 1 (mod 4): G has order v, and the base round seats every element but 0, who sits out. Round g adds g to
  every point, so g sits out: each player sits out once. G is Z_v, but for 9, which has no cyclic design (an
  exhaustive search finds none), G is Z_3 x Z_3, and for 25 the field GF(25)'s additive group Z_5 x Z_5; the
  element (a, b) is written 3a + b (5a + b).
- v ≡ 0 (mod 4): G is Z_(v-1) and the points are G and a fixed point ∞ (``INFINITY``, ∞ + g = ∞), a
  "1-rotational" design: v - 1 rounds, nobody sits out.

A base round is a whist design exactly when its partner differences ±(a - b), ±(c - d) over its tables (a, b)
against (c, d) give every non-zero element of G once, and its opponent differences ±(a - c), ±(a - d), ±(b - c),
±(b - d) give each twice, pairs with ∞ left out (∞ meets each other point as the base round's partner or
opponents of ∞ developed, so once as a partner and twice as an opponent). The base rounds below were found once
by a computer search (simulated annealing over the base round's seats, the cost being how far the differences
are from these counts); ``tests/test_whist.py`` checks the condition and the developed rounds.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

INFINITY = -1

# v: (the group's cyclic factors, the base round's tables (a, b, c, d): a and b partner against c and d).
BASES: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int, int, int], ...]]] = {
    4: ((3,), ((0, INFINITY, 1, 2),)),
    5: ((5,), ((1, 4, 2, 3),)),
    8: ((7,), ((2, 1, 6, 3), (0, 5, 4, INFINITY))),
    9: ((3, 3), ((5, 7, 3, 6), (1, 2, 4, 8))),
    12: ((11,), ((6, INFINITY, 4, 9), (0, 1, 2, 5), (8, 10, 7, 3))),
    13: ((13,), ((12, 7, 6, 9), (2, 3, 4, 11), (1, 5, 8, 10))),
    16: ((15,), ((5, 11, 14, 9), (13, 12, 4, 2), (0, 3, 1, 8), (6, 10, 7, INFINITY))),
    17: ((17,), ((16, 12, 6, 15), (3, 14, 5, 10), (13, 11, 8, 7), (4, 1, 9, 2))),
    20: ((19,), ((6, 18, 8, 14), (0, 3, INFINITY, 2), (13, 4, 9, 7), (17, 16, 5, 10), (12, 1, 11, 15))),
    21: ((21,), ((10, 16, 14, 17), (3, 15, 7, 12), (4, 5, 13, 11), (18, 8, 2, 19), (20, 6, 9, 1))),
    24: ((23,), ((16, 9, 3, 11), (4, 5, 7, 12), (INFINITY, 8, 20, 17), (14, 0, 1, 18), (19, 6, 15, 13), (22, 10, 21, 2))),
    # The additive group of GF(25), a + bt written 5b + a (t² = 2 + 2t, t primitive): (t^i, -t^i) against
    # (t^(i+6), -t^(i+6)), i < 6, the classical base round for a prime power 4m + 1 (Anderson 1997).
    25: ((5, 5), ((1, 4, 3, 2), (5, 20, 15, 10), (12, 18, 6, 24), (9, 21, 17, 13), (7, 23, 16, 14), (22, 8, 11, 19))),
    28: (
        (27,),
        ((15, 26, 6, 5), (17, 21, 2, 11), (10, 23, 7, 24), (25, 18, 22, 20), (12, 4, 0, 3), (INFINITY, 8, 13, 19), (16, 1, 14, 9)),
    ),
}

Design = tuple[tuple[tuple[int, ...], ...], ...]


def exists(count: int) -> bool:
    """Whether ``count`` players have a full rotation here (4 to 28 players, 4k or 4k + 1)."""
    return count in BASES


def length(count: int) -> int:
    """The rounds of a full rotation of ``count`` players: one fewer than the players, or as many when one sits out."""
    return count - 1 if count % 4 == 0 else count


def add(x: int, y: int, moduli: tuple[int, ...]) -> int:
    """x + y in the group Z_m1 x Z_m2 x …, its elements written as mixed-radix numbers (the last factor the units)."""
    total, unit = 0, 1
    for modulus in reversed(moduli):
        total += (x // unit % modulus + y // unit % modulus) % modulus * unit
        unit *= modulus
    return total


def negative(x: int, moduli: tuple[int, ...]) -> int:
    """-x in the same group."""
    total, unit = 0, 1
    for modulus in reversed(moduli):
        total += -(x // unit % modulus) % modulus * unit
        unit *= modulus
    return total


@cache
def design(count: int) -> Design:
    """The rounds of the full rotation of ``count`` players, points 0 to ``count`` - 1: each round's tables
    (a, b, c, d), a and b partners against c and d; when ``count`` is 4k + 1 the point missing from a round sits out.

    The rounds are ordered so that opponents spread out early: after the first, each next round is the one whose
    opponents have met least so far (their counts squared, summed), so a night cut short of the whole rotation has
    repeated few opponents.
    """
    moduli, base = BASES[count]
    order = 1
    for modulus in moduli:
        order *= modulus
    point = {INFINITY: order}  # ∞ is the last point.
    rounds = [tuple(tuple(point[p] if p == INFINITY else add(p, g, moduli) for p in table) for table in base) for g in range(order)]
    met: Counter[tuple[int, int]] = Counter()
    ordered = []
    while rounds:
        best = min(rounds, key=lambda tables: sum(met[pair] ** 2 for table in tables for pair in _opponents(table)))
        rounds.remove(best)
        ordered.append(best)
        met.update(pair for table in best for pair in _opponents(table))
    return tuple(ordered)


def _opponents(table: tuple[int, ...]) -> list[tuple[int, int]]:
    a, b, c, d = table
    return [(min(x, y), max(x, y)) for x in (a, b) for y in (c, d)]
