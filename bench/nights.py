"""How fast and how well the card night's planner seats a night: ``.venv/bin/python bench/nights.py [--seeds N]``.

For each number of players and way of seating, plans whole nights of ``MAX_ROUNDS`` rounds (the same players
all night) with several seeds and prints the processor time one round takes to plan (median, 90th centile
and worst, over every round of every night; this process's own time, so the others sharing the machine
count for little), and how well the nights came out, in the worst night of each case: the
partner repeats over the night (against the fewest there can be: partnerships beyond one for every pair) and
in its first five rounds, the most times one pair faced each other (against the most if every pair's count
were as even as the tables allow), and the pairs who never faced each other. Pure Python,
no database.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # Run as a script: the project's root is not on the path.

from scores.engine import planner

CASES = [
    (8, planner.Seating()),
    (9, planner.Seating(leftover="byes")),
    (9, planner.Seating()),
    (12, planner.Seating()),
    (16, planner.Seating()),
    (18, planner.Seating(leftover="byes")),
    (20, planner.Seating()),
    (24, planner.Seating()),
    (27, planner.Seating()),
    (28, planner.Seating()),
    (10, planner.Seating(partnership=False)),
    (28, planner.Seating(partnership=False, solo_size=7)),
]


def one_night(count: int, seating: planner.Seating, seed: int) -> tuple[list[float], list[planner.Round]]:
    times, rounds = [], []
    for _ in range(planner.MAX_ROUNDS):
        start = time.process_time()
        rounds.append(planner.plan_round(range(count), [r.tables for r in rounds], seating=seating, seed=seed))
        times.append(time.process_time() - start)
    return times, rounds


def met(rounds: list[planner.Round]) -> tuple[Counter, Counter]:
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for r in rounds:
        for table in r.tables:
            partners.update(frozenset(p) for p in table.partners())
            opponents.update(frozenset(p) for p in table.opponents())
    return partners, opponents


def repeats(partners: Counter) -> int:
    return sum(c - 1 for c in partners.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="nights planned for each case (default 10)")
    args = parser.parse_args()
    print(f"{planner.MAX_ROUNDS} rounds a night, {args.seeds} nights a case; processor time per round in ms")
    heading = f"{'players':>7} {'seating':<16} {'median':>6} {'p90':>6} {'worst':>6}"
    print(f"{heading}  {'partner repeats':>15} {'in 5':>4}  {'most met':>8}  {'never':>5}")
    for count, seating in CASES:
        times: list[float] = []
        worst_repeats = worst_early = most = never = 0
        for seed in range(args.seeds):
            night_times, rounds = one_night(count, seating, seed)
            times += night_times
            partners, opponents = met(rounds)
            worst_repeats = max(worst_repeats, repeats(partners))
            worst_early = max(worst_early, repeats(met(rounds[:5])[0]))
            pairs = [opponents[frozenset(p)] for p in combinations(range(count), 2)]
            most = max(most, max(pairs))
            never = max(never, pairs.count(0))
        fewest = max(0, sum(partners.values()) - len(pairs))
        even = -(-sum(pairs) // len(pairs))
        kind = f"solo of {seating.solo_size}" if not seating.partnership else f"fours, {seating.leftover}"
        ms = sorted(t * 1000 for t in times)
        p90 = ms[int(0.9 * (len(ms) - 1))]
        print(
            f"{count:>7} {kind:<16} {statistics.median(ms):>6.1f} {p90:>6.1f} {ms[-1]:>6.1f}  "
            f"{f'{worst_repeats} ({fewest})':>15} {worst_early:>4}  {f'{most} ({even})':>8}  {never:>5}"
        )


if __name__ == "__main__":
    main()
