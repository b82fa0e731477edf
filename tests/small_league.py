"""A small league worked out by hand, shared by the standings, ratings and player page tests.

Game 1, 2026-01-10, solo to 7, Ann Bob Cat:
  1. Ann bids 2: High Ann, Low Bob, Jack Cat, Game Ann -> Ann +2 (made), Bob +1, Cat +1     (2, 1, 1)
  2. Bob bids 3: High Bob, Low Bob, Game Cat             -> Bob set -3, Cat +1            (2, -2, 2)
  3. Ann bids 4: all four to Ann                         -> Ann +4                        (6, -2, 2)
  4. Ann bids 1: High Ann, Low Cat                       -> Ann +1 goes out, Cat +1       (7, -2, 3)
Game 2, 2026-02-01, partnership to 7: Us = Ann & Cat, Them = Bob & Dan:
  1. Bob bids 4: High Bob, Low Bob, Jack Dan, Game Dan   -> Them +4                       (Us 0, Them 4)
  2. Dan bids 3: High Dan, Low Dan, Jack Ann, Game Dan   -> Them +3 go out, Us +1         (Us 1, Them 7)
Game 3, 2026-02-02, solo, Ann Bob, in progress after one hand: counts for nothing.
"""

from __future__ import annotations

import datetime

from scores.engine import rules
from scores.table import services

from .conftest import hand

G1_HANDS = [
    hand("Ann", 2, "Ann", "Bob", "Cat", "Ann"),
    hand("Bob", 3, "Bob", "Bob", None, "Cat"),
    hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"),
    hand("Ann", 1, "Ann", "Cat"),
]
G2_HANDS = [
    hand("Bob", 4, "Bob", "Bob", "Dan", "Dan"),
    hand("Dan", 3, "Dan", "Dan", "Ann", "Dan"),
]


def build(league):
    g1 = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat"], code="g1", played_on=datetime.date(2026, 1, 10), rules=rules.Rules()
    )
    for h in G1_HANDS:
        services.record_hand(game=g1, hand=h)
    g2 = services.start_game(
        league=league,
        seats=["Ann", "Bob", "Cat", "Dan"],
        teams=[("Us", ["Ann", "Cat"]), ("Them", ["Bob", "Dan"])],
        code="g2",
        played_on=datetime.date(2026, 2, 1),
        rules=rules.Rules(),
    )
    for h in G2_HANDS:
        services.record_hand(game=g2, hand=h)
    g3 = services.start_game(league=league, seats=["Ann", "Bob"], code="g3", played_on=datetime.date(2026, 2, 2), rules=rules.Rules())
    services.record_hand(game=g3, hand=hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"))
    for g in (g1, g2, g3):
        g.refresh_from_db()
    return g1, g2, g3


def grow(league, games: int, first: int = 0) -> None:
    """Finished solo and partnership games with new players each time, so players and games both grow."""
    for i in range(first, first + games):
        names = [f"P{i}a", f"P{i}b", f"P{i % 3}c", f"P{i % 3}d"]
        teams = [(f"T{i}x", [names[0], names[2]]), (f"T{i}y", [names[1], names[3]])] if i % 2 else []
        game = services.start_game(
            league=league, seats=names, teams=teams, code=f"grow-{i}", played_on=datetime.date(2026, 1, 1 + i), rules=rules.Rules()
        )
        for _ in range(2):
            services.record_hand(game=game, hand=hand(names[i % 4], 4, names[i % 4], names[i % 4], names[i % 4], names[i % 4]))
