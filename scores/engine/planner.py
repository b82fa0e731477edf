"""Card nights, as pure Python: who sits where each round, and the night's standings.

A card night seats the players present (``MIN_PLAYERS`` to ``MAX_PLAYERS``) at several tables at once and
plays up to ``MAX_ROUNDS`` rounds, each table of a round an ordinary game. ``plan_round`` seats the next
round from the rounds played so far, so the players may change between rounds (someone leaves, someone
arrives); ``standings`` totals the night's finished games per player. Players are the league's player
ids. No Django here, like ``scores.engine.rules``.

How a round is seated (``layout``), for ``n`` players:

- A partnership night seats tables of four, two teams of two, partners opposite (seats 1 and 3, seats
  2 and 4). When ``n`` is not a multiple of four the players left over are seated this way::

      left over   leftover="solo" (the default)             leftover="byes"
      1           a solo table of 5 instead of a table      1 bye
                  of four (5 players: only that table)
      2           two solo tables of 3 instead of a table   2 byes
                  of four (6 players: only those two)
      3           a solo table of 3                         a solo table of 3 (three can play, so nobody sits out)

  Byes go to the players who have played the most rounds tonight, so nobody sits out twice before everyone
  present has sat out once (a round missed by arriving late counts as sat out). Solo seats go, of the
  others, to those who have played the most rounds at a table of four, so they go round too.
- A solo night seats tables of ``solo_size`` (3 to 7) players or fewer, their sizes as even as possible;
  only when that would leave a table under 3 are there fewer, bigger tables. Nobody sits out.

A partnership night whose rounds have a whist design's shape (4k players, or 4k + 1 sitting one out with
leftover "byes") is seated by that design (``scores.engine.whist``), its players drawn to the design's points by the
night's seed, as long as the same players have played every round: over the design's rounds every pair partners
once and opposes twice (a "full rotation"), and a shorter night plays its first rounds. Once the players change
(a late arrival, a leaver) the rounds are no longer the design's, and the search below seats the rest of the night
from the rounds played. Other counts (4k + 2, 4k + 3, 4k + 1 with a table of five) are searched from the first
round: a design for more players with missing ones would leave the solo seats to the design's order, not to the
fairness rules above.

Within those rules the planner reseats so that partners, and then opponents, repeat as little as possible
over the night: a partner repeat is worse than any number of opponent repeats, and a pair's cost grows with
the times they met before, so repeats that cannot be avoided are spread out. It searches (local search
with restarts) with a random generator seeded by the night's seed and the round's number: the same seed,
players and rounds so far give the same round, so a night's plan can be recomputed or continued.

Each round says what it did with the players left over (``Round.notes``): messages marked with ``N_``,
English templates with their parameters, for the pages to put in the reader's language and fill in the
players' names.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from . import whist
from .rules import N_, Problem, RulesError

MIN_PLAYERS = 4
MAX_PLAYERS = 28
# The longest full rotation (``scores.engine.whist``): 28 players, 27 rounds.
MAX_ROUNDS = 27
MIN_SOLO_SIZE = 3
MAX_SOLO_SIZE = 7
LEFTOVERS = ("solo", "byes")  # The first is the default.

# A partner repeat outweighs every opponent repeat a round can hold: fewer than 40 pairs of opponents, each
# costing at most (MAX_ROUNDS - 1) ** 2.
PARTNER_WEIGHT = 40 * (MAX_ROUNDS - 1) ** 2
# The search starts again from another fair seating drawn at random until it has tried this many swaps (or
# found a round with no repeats), at most this many times: small nights are searched as hard as big ones.
SEARCH_SWAPS = 5_000
MAX_RESTARTS = 64


@dataclass(frozen=True)
class Seating:
    """How a night seats its players: tables of four in partnership, or solo tables of ``solo_size`` (3 to 7).

    ``leftover`` ("solo" or "byes") says what a partnership night does with one or two players the tables of
    four leave over; ``solo_size`` is for solo nights only, ``leftover`` for partnership nights only.
    """

    partnership: bool = True
    solo_size: int = 4
    leftover: str = LEFTOVERS[0]

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RulesError(problems)

    def problems(self) -> list[Problem]:
        problems = []
        if type(self.solo_size) is not int or not MIN_SOLO_SIZE <= self.solo_size <= MAX_SOLO_SIZE:
            problems.append(
                Problem.of(
                    N_("a solo table seats %(min)s to %(max)s players, got %(value)s"),
                    field="solo_size",
                    min=MIN_SOLO_SIZE,
                    max=MAX_SOLO_SIZE,
                    value=repr(self.solo_size),
                )
            )
        if self.leftover not in LEFTOVERS:
            problems.append(Problem.of(N_('leftover must be "solo" or "byes", got %(value)s'), field="leftover", value=repr(self.leftover)))
        return problems


@dataclass(frozen=True)
class PlannedTable:
    """One table of a round: the players clockwise from seat 1 and, in partnership play, the teams.

    A table of four in partnership has teams ``(seats[0], seats[2])`` and ``(seats[1], seats[3])``; a solo
    table has no teams.
    """

    seats: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] = ()

    @property
    def partnership(self) -> bool:
        return bool(self.teams)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Whoever scores together: the teams, or each player alone."""
        return self.teams or tuple((player,) for player in self.seats)

    def partners(self) -> list[tuple[int, int]]:
        return [pair for team in self.teams for pair in combinations(team, 2)]

    def opponents(self) -> list[tuple[int, int]]:
        return [(a, b) for one, other in combinations(self.sides, 2) for a in one for b in other]


@dataclass(frozen=True)
class Note:
    """What a round did with the players the tables left over, for the page to put into words.

    ``kind`` is "bye" (``players`` sit out), "solo" (``players`` play solo in a partnership night) or
    "uneven" (a solo night's players do not make whole tables of its size; ``players`` is empty).
    ``template`` is an English message marked with ``N_``; the page translates it and fills in
    ``%(players)s`` with the players' names, and the parameters.
    """

    kind: str
    players: tuple[int, ...]
    template: str
    params: tuple[tuple[str, object], ...] = ()

    def english(self, names: Mapping[int, str]) -> str:
        """The note in English, the players named by ``names``."""
        values = {key: _english_list(value) if isinstance(value, tuple) else value for key, value in self.params}
        return self.template % {**values, "players": _english_list(tuple(names[p] for p in self.players))}


@dataclass(frozen=True)
class Round:
    """One round's seating: its tables (tables of four first), who sits out, and what it did with the players left over."""

    tables: tuple[PlannedTable, ...]
    byes: tuple[int, ...] = ()
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True)
class Layout:
    """The shape of a round for a number of players: how many tables of four, the solo tables' sizes, how many byes."""

    fours: int
    solo: tuple[int, ...]
    byes: int


def layout(count: int, seating: Seating) -> Layout:
    """The tables ``count`` players make on a night seated as ``seating`` (the policy in the module's docstring)."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RulesError(_count_problem(count))
    if not seating.partnership:
        tables = -(-count // seating.solo_size)
        if count < MIN_SOLO_SIZE * tables:
            tables = count // MIN_SOLO_SIZE
        return Layout(0, tuple(count // tables + (i < count % tables) for i in range(tables)), 0)
    fours, over = divmod(count, 4)
    if over == 0:
        return Layout(fours, (), 0)
    if over == 3:
        return Layout(fours, (3,), 0)
    if seating.leftover == "byes":
        return Layout(fours, (), over)
    return Layout(fours - 1, (5,) if over == 1 else (3, 3), 0)


def plan_round(
    players: Iterable[int], history: Sequence[Sequence[PlannedTable]] = (), *, seating: Seating = Seating(), seed: int = 0
) -> Round:
    """Seat the players present for the next round, given the tables of each round played so far.

    Byes and solo seats go round as the module's docstring says; within that, partners and then opponents
    repeat as little as possible. The same arguments give the same round.
    """
    present = sorted(players)
    problems = []
    if not MIN_PLAYERS <= len(present) <= MAX_PLAYERS:
        problems.append(_count_problem(len(present)))
    if len(set(present)) != len(present):
        problems.append(Problem.of(N_("a player is listed twice"), field="players"))
    if len(history) >= MAX_ROUNDS:
        problems.append(Problem.of(N_("a card night has at most %(max)s rounds"), field="rounds", max=MAX_ROUNDS))
    if problems:
        raise RulesError(problems)
    rotation = _rotation(present, seating, seed)
    done = len(history)
    if done < len(rotation) and all(_same(played, tables) for played, (tables, _byes) in zip(history, rotation, strict=False)):
        tables, byes = rotation[done]
        return Round(tables, byes, notes(tables, byes, seating))
    shape = layout(len(present), seating)
    rng = random.Random(f"{seed}:{len(history) + 1}")
    search = _Search(present, history, shape)
    at = search.best(rng)
    tables, byes = search.tables(at)
    return Round(tables, byes, notes(tables, byes, seating))


def _rotation(present: Sequence[int], seating: Seating, seed: int) -> list[tuple[tuple[PlannedTable, ...], tuple[int, ...]]]:
    """The rounds of the whist design (``scores.engine.whist``) for these players, each its tables and byes, when a round of
    the night is that design's shape: partnership tables of four, and one player sitting out for 4k + 1 players
    (leftover "byes"). Empty otherwise. The night's seed draws which player is which point of the design."""
    count = len(present)
    if not seating.partnership or not whist.exists(count) or layout(count, seating).solo:
        return []
    players = sorted(present)
    random.Random(f"{seed}:rotation").shuffle(players)
    rounds = []
    for design_round in whist.design(count):
        tables = tuple(
            PlannedTable((players[a], players[c], players[b], players[d]), ((players[a], players[b]), (players[c], players[d])))
            for a, b, c, d in design_round
        )
        seated = {player for table in tables for player in table.seats}
        rounds.append((tables, tuple(sorted(p for p in players if p not in seated))))
    return rounds


def _same(played: Sequence[PlannedTable], tables: Sequence[PlannedTable]) -> bool:
    """Whether a round played seated the same sides at the same tables as ``tables`` (seats aside)."""
    return {frozenset(map(frozenset, table.sides)) for table in played} == {frozenset(map(frozenset, table.sides)) for table in tables}


def rotation_kept(rounds: Sequence[tuple[Sequence[PlannedTable], Sequence[int]]], seating: Seating, seed: int) -> int:
    """How many of a night's rounds (each its tables and byes), from the first, are its whist design's rounds for
    the players who played them: fewer than all once the players changed, the planner having searched from there."""
    designs: dict[tuple[int, ...], list[tuple[tuple[PlannedTable, ...], tuple[int, ...]]]] = {}
    for number, (tables, byes) in enumerate(rounds):
        present = tuple(sorted([p for table in tables for p in table.seats] + list(byes)))
        if present not in designs:
            designs[present] = _rotation(present, seating, seed)
        rotation = designs[present]
        if number >= len(rotation) or not all(_same(rounds[i][0], rotation[i][0]) for i in range(number + 1)):
            return number
    return len(rounds)


@dataclass(frozen=True)
class Quality:
    """How a partnership night's rounds so far have mixed its players, of all ``pairs`` of them: how many pairs
    have partnered, how many partnered more than once, and how many opposed more than twice (a full rotation's
    most)."""

    pairs: int
    partnered: int
    partner_repeats: int
    opponent_repeats: int


def quality(rounds: Iterable[Sequence[PlannedTable]], players: Iterable[int]) -> Quality:
    """The ``Quality`` of these rounds' tables, over every pair of ``players`` (everyone who played or sat out)."""
    partners: dict[frozenset[int], int] = {}
    opponents: dict[frozenset[int], int] = {}
    for tables in rounds:
        for table in tables:
            for counts, pairs in ((partners, table.partners()), (opponents, table.opponents())):
                for pair in pairs:
                    key = frozenset(pair)
                    counts[key] = counts.get(key, 0) + 1
    count = len(set(players))
    return Quality(
        pairs=count * (count - 1) // 2,
        partnered=len(partners),
        partner_repeats=sum(times > 1 for times in partners.values()),
        opponent_repeats=sum(times > 2 for times in opponents.values()),
    )


def _count_problem(count: int) -> Problem:
    return Problem.of(
        N_("a card night needs %(min)s to %(max)s players, got %(count)s"), field="players", min=MIN_PLAYERS, max=MAX_PLAYERS, count=count
    )


def _history_counts(
    present: list[int], history: Sequence[Sequence[PlannedTable]]
) -> tuple[list[int], list[int], list[list[int]], list[list[int]]]:
    """By index in ``present``: the rounds each played, those at tables of four, and how often each pair of them were
    partners and opponents."""
    index = {player: i for i, player in enumerate(present)}
    n = len(present)
    partners = [[0] * n for _ in range(n)]
    opponents = [[0] * n for _ in range(n)]
    played = [0] * n
    at_fours = [0] * n
    for tables in history:
        for table in tables:
            for player in table.seats:
                if player in index:
                    played[index[player]] += 1
                    at_fours[index[player]] += table.partnership
            for counts, pairs in ((partners, table.partners()), (opponents, table.opponents())):
                for a, b in pairs:
                    if a in index and b in index:
                        counts[index[a]][index[b]] += 1
                        counts[index[b]][index[a]] += 1
    return played, at_fours, partners, opponents


def _groups(shape: Layout) -> list[tuple[str, range]]:
    """The round's slots in groups, in order: the tables of four, the solo tables, then the byes (if any)."""
    groups: list[tuple[str, range]] = []
    start = 0
    for kind, sizes in (("fours", [4] * shape.fours), ("solo", list(shape.solo)), ("byes", [shape.byes] if shape.byes else [])):
        for size in sizes:
            groups.append((kind, range(start, start + size)))
            start += size
    return groups


def _neighbours(kind: str, slots: range, s: int) -> tuple[int | None, tuple[int, ...]]:
    """Whom slot ``s`` of a group meets: its partner's slot (at a table of four) and its opponents' slots."""
    if kind == "fours":
        k = s - slots.start
        return slots.start + (k + 2) % 4, (slots.start + (k + 1) % 4, slots.start + (k + 3) % 4)
    if kind == "solo":
        return None, tuple(t for t in slots if t != s)
    return None, ()  # A bye meets no one.


class _Search:
    """The round's seats as slots: a list ``at`` of player indexes, slot by slot; a group of slots is a table or the byes.

    A group of four is a partnership table (slots 0 and 2 partners, 1 and 3); a solo group is a solo table.
    Players swap slots while that lowers the cost, from a fair seating ``_fair_start`` draws.
    """

    def __init__(self, present: list[int], history: Sequence[Sequence[PlannedTable]], shape: Layout) -> None:
        self.present = present
        self.played, self.at_fours, partners, opponents = _history_counts(present, history)
        # A pair's cost for meeting again: the square of the times they met before, so that repeats spread out.
        self.partner_cost = [[PARTNER_WEIGHT * c * c for c in row] for row in partners]
        self.opponent_cost = [[c * c for c in row] for row in opponents]
        self.groups = _groups(shape)
        self.group_of = [g for g, (_kind, slots) in enumerate(self.groups) for _ in slots]
        self.kind = [self.groups[g][0] for g in self.group_of]
        # Who a slot's player meets: the partner's slot (None if none) and the opponents' slots.
        self.partner_slot: list[int | None] = []
        self.opponent_slots: list[tuple[int, ...]] = []
        for kind, slots in self.groups:
            for s in slots:
                partner, opponents_at = _neighbours(kind, slots, s)
                self.partner_slot.append(partner)
                self.opponent_slots.append(opponents_at)

    def _meets(self, at: list[int], player: int, slot: int) -> int:
        """What ``player`` costs in ``slot``, with the players seated there now around it."""
        partner = self.partner_slot[slot]
        cost = self.partner_cost[player][at[partner]] if partner is not None else 0
        row = self.opponent_cost[player]
        for t in self.opponent_slots[slot]:
            cost += row[at[t]]
        return cost

    def cost(self, at: list[int], slots: Iterable[int]) -> int:
        """What the players in these slots (a whole table, or every slot) cost: every pair that meets, once."""
        return sum(self._meets(at, at[s], s) for s in slots) // 2

    def best(self, rng: random.Random) -> list[int]:
        best: list[int] = []
        best_cost = -1
        tried = 0
        for _ in range(MAX_RESTARTS):
            at = self._fair_start(rng)
            cost, swaps = self._descend(at, rng)
            if best_cost < 0 or cost < best_cost:
                best, best_cost = at, cost
            tried += swaps
            if best_cost == 0 or tried >= SEARCH_SWAPS:
                break
        return best

    def _fair_start(self, rng: random.Random) -> list[int]:
        """A seating that gives the byes, then the solo seats, to those who played the most: ties drawn at random."""
        order = list(range(len(self.present)))
        rng.shuffle(order)
        order.sort(key=lambda i: -self.played[i])  # A stable sort: the draw orders the ties.
        byes = self.kind.count("byes")
        rest = order[byes:]
        rest.sort(key=lambda i: -self.at_fours[i])
        solo = self.kind.count("solo")
        fours, solos = rest[solo:], rest[:solo]
        rng.shuffle(fours)
        rng.shuffle(solos)
        return fours + solos + order[:byes]

    def _descend(self, at: list[int], rng: random.Random) -> tuple[int, int]:
        """Swap players while a swap lowers the cost; the seating's cost at the end, and the swaps tried."""
        kind, group_of = self.kind, self.group_of
        swaps = [
            (i, j)
            for i, j in combinations(range(len(at)), 2)
            # Only a table of four's teams change when two of its players change seats.
            if group_of[i] != group_of[j] or (kind[i] == "fours" and (i - j) % 2)
        ]
        # A bye, a solo seat and a seat at a table of four change hands only between players who have played as
        # many rounds and as many at tables of four, so the seating stays as fair as it started.
        fair = [(self.played[p], self.at_fours[p]) for p in range(len(at))]
        cost = self.cost(at, range(len(at)))
        meets = self._meets
        rng.shuffle(swaps)
        # Round and round the swaps, taking each that lowers the cost, until a whole round takes none.
        since = tried = 0
        while cost and since < len(swaps):
            i, j = swaps[tried % len(swaps)]
            tried += 1
            since += 1
            x, y = at[i], at[j]
            if kind[i] != kind[j] and fair[x] != fair[y]:
                continue
            if group_of[i] != group_of[j]:
                delta = meets(at, y, i) - meets(at, x, i) + meets(at, x, j) - meets(at, y, j)
                if delta < 0:
                    at[i], at[j] = y, x
                    cost += delta
                    since = 0
            else:  # Two players of one table of four: its cost before and after.
                table = self.groups[group_of[i]][1]
                before = self.cost(at, table)
                at[i], at[j] = y, x
                delta = self.cost(at, table) - before
                if delta < 0:
                    cost += delta
                    since = 0
                else:
                    at[i], at[j] = x, y
        return cost, tried

    def tables(self, at: list[int]) -> tuple[tuple[PlannedTable, ...], tuple[int, ...]]:
        tables = []
        byes: tuple[int, ...] = ()
        for kind, slots in self.groups:
            seats = tuple(self.present[at[s]] for s in slots)
            if kind == "fours":
                tables.append(PlannedTable(seats, ((seats[0], seats[2]), (seats[1], seats[3]))))
            elif kind == "solo":
                tables.append(PlannedTable(seats))
            else:
                byes = tuple(sorted(seats))
        return tuple(tables), byes


def notes(tables: Sequence[PlannedTable], byes: Sequence[int], seating: Seating) -> tuple[Note, ...]:
    """What a round seated as ``seating`` did with the players left over: the notes of ``plan_round``'s round,
    again from a round's tables and byes (as stored, say)."""
    if byes:
        return (Note("bye", tuple(byes), _BYES[len(byes)]),)
    solo = [table for table in tables if not table.partnership]
    sizes = tuple(len(table.seats) for table in solo)
    if seating.partnership:
        template = _SOLO.get(sizes)  # None: no solo tables, or none the planner makes.
        return (Note("solo", tuple(p for table in solo for p in table.seats), template),) if template else ()
    if all(size == seating.solo_size for size in sizes):
        return ()
    template = N_("%(count)s players do not make whole tables of %(size)s: this round's tables seat %(sizes)s.")
    return (Note("uneven", (), template, (("count", sum(sizes)), ("size", seating.solo_size), ("sizes", sizes))),)


_BYES = {
    1: N_("%(players)s sits out this round: the tables of four leave one player over."),
    2: N_("%(players)s sit out this round: the tables of four leave two players over."),
}
_SOLO = {  # A partnership night's solo tables, by their sizes.
    (5,): N_("%(players)s play solo at a table of five: the tables of four would leave one player over."),
    (3, 3): N_("%(players)s play solo at two tables of three: the tables of four would leave two players over."),
    (3,): N_("%(players)s play solo at a table of three: the tables of four leave three players over."),
}


def _english_list(items: tuple[object, ...]) -> str:
    words = [str(item) for item in items]
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class Line:
    """One player's figures in one finished game of the night, as the game's seat keeps them.

    In partnership play each partner has a line of their own with the team's points and win: partners are
    credited individually. ``sets`` counts the hands this player pitched and was set.
    """

    player: int
    won: bool
    points: int
    sets: int = 0


@dataclass(frozen=True)
class Standing:
    """One player's line in the night's standings."""

    rank: int
    player: int
    games: int
    wins: int
    points: int
    sets: int


def standings(lines: Iterable[Line], players: Iterable[int] = (), *, by_points: bool = False) -> tuple[Standing, ...]:
    """The night's standings: each player's finished games totalled, ranked by games won, then points; ``by_points``
    (a night of rounds of a number of hands, as a progressive night is scored), by points, then games won.

    Players with the same wins and points share a rank (1, 2, 2, 4), listed by player id. ``players`` are
    listed even without a finished game (with noughts), so everyone present is on the board from the start.
    """
    totals: dict[int, list[int]] = {player: [0, 0, 0, 0] for player in players}
    for line in lines:
        total = totals.setdefault(line.player, [0, 0, 0, 0])
        total[0] += 1
        total[1] += line.won
        total[2] += line.points
        total[3] += line.sets
    first, second = (2, 1) if by_points else (1, 2)
    order = sorted(totals, key=lambda p: (-totals[p][first], -totals[p][second], p))
    rows: list[Standing] = []
    for i, player in enumerate(order):
        games, wins, points, sets = totals[player]
        tied = rows and (rows[-1].wins, rows[-1].points) == (wins, points)
        rows.append(Standing(rows[-1].rank if tied else i + 1, player, games, wins, points, sets))
    return tuple(rows)
