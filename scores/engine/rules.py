"""The rules of Pitch, as pure Python: the one source of truth for scoring.

Implements the rule sheet (docs/rules.md: players, bidding, scoring, winning), the members of the Pitch family
(a ``Variant``: which points a hand awards and what each is worth, its usual minimum bid and target) and the house
rules a table may choose (going out, minimum bid, dealer's steal, smudge, no negative scores): one frozen ``Rules``
value per game, which every function that decides anything takes through its ``Table``. No Django here: models,
services, views, import, export and standings all call these functions and never re-derive a score themselves.

The 4-point game is the rule sheet's; every other variant plays by the same sentences with the top bid (the
variant's total) in the place of 4.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from .names import clean as clean_name
from .names import key as name_key

MIN_PLAYERS = 2
MAX_PLAYERS = 7
MIN_TARGET = 1
MAX_TARGET = 999
# A game may be played as a set number of hands instead of to the target (a progressive night's rounds): 1-30.
MIN_HANDS = 1
MAX_HANDS = 30
# The most hands a game recorded from paper may say it had (a long game to a target included).
MAX_PAPER_HANDS = 500
STUCK_DEALER_MINIMUM = 2  # Or the minimum bid, when that is higher (but never above the top bid).
# House rules: the first of each is the rule sheet's own rule, the default.
GOING_OUT = ("pitcher", "made_bid")  # "pitcher": a set pitcher still at the target wins; "made_bid": it does not.
# Partnership play, as (teams, players in each team); partners sit every ``teams`` seats.
TEAM_SHAPES = ((2, 2), (3, 2), (2, 3))


def N_(message: str) -> str:
    """Mark a message for translation, unchanged: this module stays free of Django.

    ``makemessages --keyword=N_`` collects these; ``scores.engine.problems`` translates them.
    """
    return message


@dataclass(frozen=True)
class Point:
    """One thing a hand awards to the side that won it, worth ``value`` points.

    ``optional``: the point may be missing from a hand (its card was not in play; for Game, a tie).
    """

    key: str
    name: str  # As players say it, in English; ``scores.engine.problems`` has it in the other languages.
    value: int
    optional: bool = True


# The catalogue, in its order (the order a custom game's points take).
CATALOGUE: dict[str, Point] = {
    point.key: point
    for point in (
        Point("high", "High", 1, optional=False),  # A trump is always in play.
        Point("low", "Low", 1, optional=False),
        Point("jack", "Jack", 1),
        Point("off_jack", "Off-jack", 1),
        Point("joker", "Joker", 1),
        Point("big_joker", "Big joker", 1),
        Point("little_joker", "Little joker", 1),
        Point("ace", "Ace", 1),
        Point("off_ace", "Off-ace", 1),
        Point("ten", "Ten", 1),
        Point("deuce", "Two", 1),
        Point("three", "Three", 3),
        Point("off_three", "Off-three", 3),
        Point("five", "Five", 5),
        Point("game", "Game", 1),  # Missing when game points are tied.
    )
}
# The most any hand can award: every point of the catalogue (a custom game may play them all). A bid, a minimum bid,
# a hand's points won and a score change never go beyond it.
MAX_TOTAL = sum(point.value for point in CATALOGUE.values())


@dataclass(frozen=True)
class Variant:
    """A member of the Pitch family: the points a hand awards (in the order they are written) and the usual
    minimum bid and target."""

    name: str
    points: tuple[str, ...]
    min_bid: int
    target: int

    @property
    def total(self) -> int:
        """The most a hand can award: the top bid."""
        return sum(CATALOGUE[key].value for key in self.points)


VARIANTS: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        Variant("4-point", ("high", "low", "jack", "game"), 1, 7),
        Variant("5-point", ("high", "low", "jack", "off_jack", "game"), 2, 11),
        Variant("6-point", ("high", "low", "jack", "off_jack", "joker", "game"), 2, 11),
        Variant("7-point", ("ace", "jack", "off_jack", "big_joker", "little_joker", "ten", "deuce"), 2, 21),
        Variant("8-point", ("ace", "jack", "off_jack", "ten", "three", "deuce"), 2, 21),
        Variant("9-point", ("high", "low", "jack", "five", "game"), 2, 21),
        Variant("10-point", ("ace", "jack", "off_jack", "big_joker", "little_joker", "ten", "three", "deuce"), 4, 52),
        Variant("11-point", ("ace", "off_ace", "jack", "off_jack", "big_joker", "little_joker", "ten", "three", "deuce"), 4, 52),
        Variant("13-point", ("ace", "jack", "off_jack", "big_joker", "little_joker", "ten", "three", "off_three", "deuce"), 4, 52),
    )
}
DEFAULT_VARIANT = "4-point"
# A table's own mix: each game picks its points (``Rules.points``); these are only its defaults.
CUSTOM = Variant("custom", (), 1, 7)


def english(key: str, value: object) -> str:
    """A problem's parameter as the English message shows it (``scores.engine.problems`` has the translated twin)."""
    if key == "allowed" and isinstance(value, tuple | list):  # The numbers a player may bid: "2, 3 or 4".
        words = [str(b) for b in value]
        return " or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1]
    if key == "said":  # A bid as given: pass, or the value as written.
        return "pass" if value is None else repr(value)
    if key == "point":  # A key of CATALOGUE, said as players say it.
        point = CATALOGUE.get(value) if isinstance(value, str) else None
        return point.name if point else str(value)
    return str(value)


@dataclass(frozen=True)
class Problem:
    """One thing wrong, with where it is: ``hand 3: bid must be 1-4, got 5``.

    ``message`` is English. The engine's own problems also keep the message
    before its parameters were put in (``template``, marked with ``N_``) and the
    parameters, so ``scores.engine.problems`` can say the same in the reader's language.
    """

    message: str
    hand: int | None = None
    field: str | None = None
    template: str = ""
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, template: str, *, hand: int | None = None, field: str | None = None, **params: object) -> Problem:
        """A problem from a template marked with ``N_`` and its parameters."""
        message = template % {key: english(key, value) for key, value in params.items()} if params else template
        return cls(message, hand=hand, field=field, template=template, params=tuple(params.items()))

    def __str__(self) -> str:
        where = f"hand {self.hand}" if self.hand is not None else ""
        if self.field:
            where = f"{where}, {self.field}" if where else self.field
        return f"{where}: {self.message}" if where else self.message


class RulesError(ValueError):
    """The rules refuse something; ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = Problem(problems)
        if isinstance(problems, Problem):
            problems = (problems,)
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


def _whole(value: object) -> bool:
    """A whole number, and not True or False (which Python counts as 1 and 0)."""
    return type(value) is int


_key = name_key  # Names are compared in their normal form and without case (``scores.engine.names``); cached there.


class _Default:
    """What a ``Rules`` field that was left out holds until the variant's default takes its place."""

    def __repr__(self) -> str:
        return "DEFAULT"


# Not None: a file's ``"target": null`` is an error, not the default.
_DEFAULT: Any = _Default()


@dataclass(frozen=True)
class Rules:
    """The rules one game is played by: its variant and points, its target and its house rules.

    A field left out takes its default: the variant's points, target and minimum bid, and the rule sheet's house
    rules. Once made, every field holds its value (``points`` in the variant's order; a custom game's in the
    catalogue's), so ``as_dict`` gives the history format's ``rules`` keys (all but ``teams``) as plain JSON values
    and ``Rules(**r.as_dict()) == r``. (``dataclasses.replace`` passes every settled value again, points
    included: for another variant, make new Rules.)
    """

    variant: str = DEFAULT_VARIANT
    points: tuple[str, ...] = _DEFAULT
    target: int = _DEFAULT
    going_out: str = GOING_OUT[0]
    min_bid: int = _DEFAULT
    steal: bool = True
    smudge: bool = False
    negative: bool = True
    # None: played to the target. A number: the game ends after that many hands, the side ahead winning; a tie is
    # played off a hand at a time until one side leads (``hand_count_winner``). The target then decides nothing.
    hands: int | None = None

    def __post_init__(self) -> None:
        problems = self._settle()
        if problems:
            raise RulesError(problems)

    def _settle(self) -> list[Problem]:
        """Put each default in its place; every problem with the values."""
        problems: list[Problem] = []
        variant = VARIANTS.get(self.variant) if isinstance(self.variant, str) else None
        if variant is None and self.variant != CUSTOM.name:
            names = ", ".join(f'"{name}"' for name in VARIANTS)
            message = N_('variant must be "custom" or one of %(variants)s, got %(value)s')
            problems.append(Problem.of(message, field="variant", variants=names, value=repr(self.variant)))
        defaults = variant or CUSTOM
        points = self._points(variant, problems)
        if points is not None:
            object.__setattr__(self, "points", points)
        if self.target is _DEFAULT:
            object.__setattr__(self, "target", defaults.target)
        if self.min_bid is _DEFAULT:
            object.__setattr__(self, "min_bid", defaults.min_bid)
        if not _whole(self.target) or not MIN_TARGET <= self.target <= MAX_TARGET:
            problems.append(
                Problem.of(
                    N_("target must be a whole number %(min)s-%(max)s, got %(value)s"),
                    field="target",
                    min=MIN_TARGET,
                    max=MAX_TARGET,
                    value=repr(self.target),
                )
            )
        if not isinstance(self.going_out, str) or self.going_out not in GOING_OUT:
            problems.append(
                Problem.of(N_('going_out must be "pitcher" or "made_bid", got %(value)s'), field="going_out", value=repr(self.going_out))
            )
        # The minimum bid can be checked only against a total: with the variant or points wrong, that waits.
        if points is not None and (not _whole(self.min_bid) or not 1 <= self.min_bid <= self.total):
            problems.append(
                Problem.of(
                    N_("min_bid must be a whole number %(min)s-%(max)s, got %(value)s"),
                    field="min_bid",
                    min=1,
                    max=self.total,
                    value=repr(self.min_bid),
                )
            )
        problems.extend(self._hands_problems())
        for key in ("steal", "smudge", "negative"):
            if type(getattr(self, key)) is not bool:
                problems.append(
                    Problem.of(N_("%(key)s must be true or false, got %(value)s"), field=key, key=key, value=repr(getattr(self, key)))
                )
        return problems

    def _hands_problems(self) -> list[Problem]:
        """A number of hands out of range (None, a game to the target, is always right)."""
        if self.hands is None or (_whole(self.hands) and MIN_HANDS <= self.hands <= MAX_HANDS):
            return []
        message = N_("hands must be a whole number %(min)s-%(max)s, got %(value)s")
        return [Problem.of(message, field="hands", min=MIN_HANDS, max=MAX_HANDS, value=repr(self.hands))]

    def _points(self, variant: Variant | None, problems: list[Problem]) -> tuple[str, ...] | None:
        """The game's points in their order, or None (and the problems) when they cannot be known."""
        given = self.points
        custom = self.variant == CUSTOM.name
        if given is _DEFAULT:
            if custom:
                problems.append(Problem.of(N_("a custom game needs its points"), field="points"))
            return variant.points if variant else None
        if not isinstance(given, list | tuple) or not all(isinstance(key, str) for key in given):
            problems.append(Problem.of(N_("points must be a list of point keys, got %(value)s"), field="points", value=repr(given)))
            return None
        before = len(problems)
        for key in dict.fromkeys(given):
            if key not in CATALOGUE:
                message = N_('"%(key)s" is not a point (the points are %(keys)s)')
                problems.append(Problem.of(message, field="points", key=key, keys=", ".join(CATALOGUE)))
            elif given.count(key) > 1:
                problems.append(Problem.of(N_('"%(key)s" is given twice'), field="points", key=key))
        if custom and not given:
            problems.append(Problem.of(N_("a custom game needs at least one point"), field="points"))
        if variant is not None and len(problems) == before and set(given) != set(variant.points):
            message = N_("the %(variant)s game's points are %(keys)s, got %(value)s")
            problems.append(Problem.of(message, field="points", variant=variant.name, keys=", ".join(variant.points), value=repr(given)))
        if len(problems) > before or not (variant or custom):
            return None
        return variant.points if variant else tuple(key for key in CATALOGUE if key in given)

    @functools.cached_property
    def kinds(self) -> tuple[Point, ...]:
        """The game's kinds of point (``CATALOGUE`` entries), in their order."""
        return tuple(CATALOGUE[key] for key in self.points)

    @functools.cached_property  # Read for every hand scored.
    def scoring(self) -> tuple[tuple[str, int, bool], ...]:
        """Each of the game's points as (key, value, optional), in their order: what scoring a hand reads."""
        return tuple((point.key, point.value, point.optional) for point in self.kinds)

    @functools.cached_property
    def total(self) -> int:
        """The most a hand can award, which is also the top bid: it plays the part 4 plays in the 4-point game."""
        return sum(point.value for point in self.kinds)

    @functools.cached_property
    def bids(self) -> tuple[int, ...]:
        """The bids these rules allow at all: the minimum bid to the top bid."""
        return tuple(range(self.min_bid, self.total + 1))

    @functools.cached_property
    def sheet(self) -> Rules:
        """The same game (variant, points, target or hands) with every house rule at its default: what the rule sheet allows."""
        return Rules(variant=self.variant, points=self.points, target=self.target, hands=self.hands)

    @property
    def house(self) -> dict[str, object]:
        """The house rules that differ from the rule sheet's for this variant (the variant, points, target and hands aside)."""
        sheet = self.sheet.as_dict()
        game = ("variant", "points", "target", "hands")
        return {key: value for key, value in self.as_dict().items() if key not in game and sheet[key] != value}

    def as_dict(self) -> dict[str, object]:
        """The history format's ``rules`` keys; ``hands`` only for a game of a number of hands, so a game played to
        its target is written as it always was."""
        played = {"hands": self.hands} if self.hands is not None else {}
        return {
            "variant": self.variant,
            "points": list(self.points),
            "target": self.target,
            "going_out": self.going_out,
            "min_bid": self.min_bid,
            "steal": self.steal,
            "smudge": self.smudge,
            "negative": self.negative,
            **played,
        }


@dataclass(frozen=True)
class Team:
    name: str
    players: tuple[str, ...]


def partners(seats: Sequence[str], teams: int) -> tuple[tuple[str, ...], ...]:
    """The players of each of ``teams`` teams seated as the rules want them: partners every ``teams`` seats
    (with 2 teams of 3, seats 1, 3, 5 and 2, 4, 6), the first team holding seat 1."""
    return tuple(tuple(seats[first::teams]) for first in range(teams))


# Where partners must sit, said for each shape of TEAM_SHAPES.
PARTNERS_APART = {
    (2, 2): N_('partners in team "%(team)s" must sit opposite each other (seats 1 and 3, or 2 and 4)'),
    (3, 2): N_('partners in team "%(team)s" must sit every third seat (seats 1 and 4, 2 and 5, or 3 and 6)'),
    (2, 3): N_('partners in team "%(team)s" must sit every second seat (seats 1, 3 and 5, or 2, 4 and 6)'),
}


@dataclass(frozen=True)
class Table:
    """Who sits where and the rules the game is played by.

    ``seats`` are the players' names clockwise. ``teams`` is empty for solo play, or T teams of S partners (one
    of TEAM_SHAPES), partners sitting every T seats. The teams are the sides in the order given.
    """

    seats: tuple[str, ...]
    rules: Rules = Rules()
    teams: tuple[Team, ...] = ()

    def __post_init__(self) -> None:
        problems = self._problems()
        if problems:
            raise RulesError(problems)

    def _problems(self) -> list[Problem]:
        problems = []
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            problems.append(
                Problem.of(
                    N_("a game needs %(min)s to %(max)s players, got %(count)s"),
                    field="seats",
                    min=MIN_PLAYERS,
                    max=MAX_PLAYERS,
                    count=len(self.seats),
                )
            )
        seen: set[str] = set()
        for name in self.seats:
            if not isinstance(name, str) or not _key(name):
                problems.append(Problem.of(N_("every seat needs a player's name"), field="seats"))
            elif _key(name) in seen:
                problems.append(Problem.of(N_('"%(name)s" is seated twice'), field="seats", name=clean_name(name)))
            else:
                seen.add(_key(name))
        if self.teams:
            problems.extend(self._team_problems(seen))
        return problems

    def _team_problems(self, player_keys: set[str]) -> list[Problem]:
        count = len(self.teams)
        size = len(self.teams[0].players)
        shape = (count, size)
        if shape not in TEAM_SHAPES or len(self.seats) != count * size or any(len(t.players) != size for t in self.teams):
            message = N_("partnership play needs 2 teams of 2 (4 players), or 3 teams of 2 or 2 teams of 3 (6 players)")
            return [Problem.of(message, field="teams")]
        problems = []
        names = [t.name for t in self.teams]
        for name in names:
            if not isinstance(name, str) or not _key(name):
                problems.append(Problem.of(N_("every team needs a name"), field="teams"))
            elif _key(name) in player_keys:
                problems.append(Problem.of(N_('team name "%(name)s" is also a player\'s name'), field="teams", name=name))
        if len({_key(n) for n in names if isinstance(n, str)}) != count:
            problems.append(Problem.of(N_("the teams need different names"), field="teams"))
        seat_keys = [_key(s) for s in self.seats]
        all_seated = True
        for team in self.teams:
            try:
                positions = sorted(seat_keys.index(_key(p)) for p in team.players)
            except ValueError:
                problems.append(Problem.of(N_('team "%(team)s" names a player who is not seated'), field="teams", team=team.name))
                all_seated = False
                continue
            if positions != list(range(positions[0], positions[0] + count * size, count)):
                problems.append(Problem.of(PARTNERS_APART[shape], field="teams", team=team.name))
        # Two teams naming the same partners would leave other players on no side.
        if all_seated and sorted(_key(p) for t in self.teams for p in t.players) != sorted(seat_keys):
            problems.append(Problem.of(N_("every player must be in exactly one team"), field="teams"))
        return problems

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def partnership(self) -> bool:
        return bool(self.teams)

    @functools.cached_property  # Asked for every hand scored.
    def sides(self) -> tuple[str, ...]:
        """Whoever scores together: each player solo, each team in partnership."""
        return tuple(t.name for t in self.teams) if self.teams else self.seats

    @functools.cached_property
    def _players(self) -> dict[str, str]:
        """Each seated name as seated, by its key (the first seat, where two share one: the table is refused)."""
        players: dict[str, str] = {}
        for seat in self.seats:
            players.setdefault(_key(seat), seat)
        return players

    @functools.cached_property
    def _sides(self) -> dict[str, str]:
        """The side each name means, by its key: a team by its name or its players' (the first team that has it)."""
        if not self.teams:
            return self._players
        sides: dict[str, str] = {}
        for team in self.teams:
            for name in (team.name, *team.players):
                sides.setdefault(_key(name), team.name)
        return sides

    @functools.cached_property
    def _as_seated(self) -> dict[str, str]:
        """``_players`` by each name exactly as seated: how nearly every name comes, found without its key."""
        return {seat: self._players[_key(seat)] for seat in self.seats}

    @functools.cached_property
    def _as_named(self) -> dict[str, str]:
        """``_sides`` by each name exactly as the table gives it, a side's or a player's."""
        names = (*self.seats, *(name for team in self.teams for name in (team.name, *team.players)))
        return {name: self._sides[_key(name)] for name in names}

    @functools.cached_property
    def _left(self) -> dict[str, str]:
        return {seat: self.seats[(i + 1) % len(self.seats)] for i, seat in enumerate(self.seats)}

    def player(self, name: object) -> str | None:
        """The seated player's name as seated, or None."""
        if not isinstance(name, str):
            return None
        return self._as_seated.get(name) or self._players.get(_key(name))

    def side(self, name: object) -> str | None:
        """The side a name means: a side itself, or a player's team."""
        if not isinstance(name, str):
            return None
        return self._as_named.get(name) or self._sides.get(_key(name))

    def left_of(self, player: str) -> str:
        """The next seat clockwise: where the deal and the bidding pass to."""
        return self._left[player]

    def bidding_order(self, dealer: str) -> tuple[str, ...]:
        """From the dealer's left round to the dealer, who bids last."""
        start = self.seats.index(dealer) + 1
        return self.seats[start:] + self.seats[:start]

    def as_dict(self) -> dict[str, object]:
        """The table as plain JSON values: what the browser's scorer (``static/scores/scorer.js``) takes."""
        return {
            "seats": list(self.seats),
            "sides": list(self.sides),
            "teams": [{"name": team.name, "players": list(team.players)} for team in self.teams],
            "rules": self.rules.as_dict(),
        }


Bids = tuple[tuple[str, int | None], ...]


@dataclass(slots=True)
class Hand:
    """What the table reports after a hand: who pitched, the bid, who won each point.

    ``points`` has one entry for each of the game's points (``Rules.points``), no more and no fewer: the side
    that won it (in partnership play, a team or one of its players), or None where the point may be missing
    (not in play; Game tied). ``dealer`` None means the deal passed to the left; ``bids`` is the optional
    auction as (player, bid or None for pass) pairs.

    Not frozen, for the reason ``ScoredHand`` is not: an import reads one for every hand of a file. Nothing
    changes one once made (``dataclasses.replace`` makes another).
    """

    pitcher: str
    bid: int
    points: Mapping[str, str | None]
    dealer: str | None = None
    bids: Bids | None = None


@dataclass(slots=True)
class ScoredHand:
    """One hand after the rules are applied. ``points`` gives each point's side (None where it was missing), in
    the game's order; the other mappings are keyed by side.

    Not frozen, unlike the engine's other values: one is made for every hand scored (an import scores hundreds of
    thousands, within its budget in BENCHMARKS.md), and a frozen dataclass sets each of its fields through
    ``object.__setattr__``: a call more for every field of every hand. Nothing changes one once made.
    """

    number: int
    dealer: str
    pitcher: str
    pitcher_side: str
    bid: int
    points: Mapping[str, str | None]
    bids: Bids | None
    won: Mapping[str, int]
    delta: Mapping[str, int]
    totals: Mapping[str, int]
    set: bool
    winner: str | None = None


@dataclass(frozen=True)
class Replay:
    """A whole game replayed: every hand scored, and who won on which hand."""

    table: Table
    hands: tuple[ScoredHand, ...]
    totals: Mapping[str, int]
    winner: str | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def leaders(self) -> tuple[str, ...]:
        best = max(self.totals.values())
        return tuple(side for side, total in self.totals.items() if total == best)


def allowed_bids(table: Table, dealer: str, bids: Sequence[tuple[str, int | None]]) -> tuple[int | None, ...]:
    """What the next bidder may say, given the auction so far (None is pass).

    Empty when the auction is over: everyone has bid, or someone bid the top bid.
    """
    order = table.bidding_order(dealer)
    top = table.rules.total
    if len(bids) >= len(order) or any(b == top for _, b in bids):
        return ()
    highest = max((b for _, b in bids if b is not None), default=0)
    allowed = table.rules.bids
    if len(bids) < len(order) - 1:
        return (None, *(b for b in allowed if b > highest))
    if highest == 0:  # Everyone before the dealer passed: the dealer is stuck.
        least = min(max(STUCK_DEALER_MINIMUM, table.rules.min_bid), top)
        return tuple(b for b in allowed if b >= least)
    if table.rules.steal:  # The dealer may steal: bid the same as the high bid.
        return (None, *(b for b in allowed if b >= highest))
    return (None, *(b for b in allowed if b > highest))


def forbidding_rule(table: Table, dealer: str, bids: Sequence[tuple[str, int | None]], bid: object) -> str | None:
    """The house rule (``"min_bid"`` or ``"steal"``) that refuses ``bid`` next, when the variant's rule sheet would allow it."""
    sheet = replace(table, rules=table.rules.sheet)
    if not _whole(bid) or bid in allowed_bids(table, dealer, bids) or bid not in allowed_bids(sheet, dealer, bids):
        return None
    return "min_bid" if bid not in table.rules.bids else "steal"


# What a refused bid says, by the house rule that refuses it (None: the rule sheet's) and whether the player may
# pass: passing is said as a verb of its own ("may pass or bid 3 or 4"), so no language has to bid a pass.
BID_REFUSALS = {
    (None, False): N_("%(player)s may bid %(allowed)s, not %(said)s"),
    (None, True): N_("%(player)s may pass or bid %(allowed)s, not %(said)s"),
    ("min_bid", False): N_("%(player)s may bid %(allowed)s, not %(said)s: this game's house rules make the minimum bid %(min)s"),
    ("min_bid", True): N_("%(player)s may pass or bid %(allowed)s, not %(said)s: this game's house rules make the minimum bid %(min)s"),
    ("steal", False): N_("%(player)s may bid %(allowed)s, not %(said)s: this game's house rules do not let the dealer steal the bid"),
    ("steal", True): N_(
        "%(player)s may pass or bid %(allowed)s, not %(said)s: this game's house rules do not let the dealer steal the bid"
    ),
}
HOUSE_RULE_REFUSALS = frozenset(template for (rule, _passing), template in BID_REFUSALS.items() if rule)  # They name the rule.


def auction_result(table: Table, dealer: str, bids: Sequence[tuple[str, int | None]]) -> tuple[str, int]:
    """Check a whole auction; return the pitcher and the bid."""
    order = table.bidding_order(dealer)
    pitcher, high = None, 0
    for i, (name, bid) in enumerate(bids):
        where = f"bids, bid {i + 1}"
        allowed = allowed_bids(table, dealer, bids[:i])
        if not allowed:
            message = N_("the auction was already over: a bid of %(top)s ends it and everyone bids once")
            raise RulesError(Problem.of(message, field=where, top=table.rules.total))
        player = table.player(name)
        if player != order[i]:
            raise RulesError(Problem.of(N_("%(expected)s bids next, not %(name)s"), field=where, expected=order[i], name=name))
        if not (bid is None or _whole(bid)) or bid not in allowed:
            rule = forbidding_rule(table, dealer, bids[:i], bid)
            numbers = tuple(b for b in allowed if b is not None)
            template = BID_REFUSALS[rule, None in allowed] if numbers else N_("%(player)s may only pass, not %(said)s")
            params: dict[str, Any] = {"min": table.rules.min_bid} if rule == "min_bid" else {}
            raise RulesError(Problem.of(template, field=where, player=player, allowed=numbers, said=bid, **params))
        if bid is not None:
            pitcher, high = player, bid
    if allowed_bids(table, dealer, bids) != ():
        raise RulesError(Problem.of(N_("the auction is not finished: %(player)s has not bid"), field="bids", player=order[len(bids)]))
    assert pitcher is not None  # The stuck dealer always bids.
    return pitcher, high


class _Report(Protocol):
    """Says one problem of the hand being scored: the field it is in, its template and parameters."""

    def __call__(self, field_name: str, template: str, /, **params: object) -> None: ...


def score_hand(table: Table, hand: Hand, *, number: int, dealer: str, before: Mapping[str, int]) -> ScoredHand:
    """Apply the scoring rules to one hand, given the totals before it.

    A problem with one point's side names that point's key as its field (``jack``); a missing or extra key in
    ``points`` names ``points``. With ``negative`` false a total is never below 0: each side's total is
    ``max(0, before + change)`` and ``delta`` what it actually changed by (a game never has a total below 0 to
    start from, so only a set pitcher's side ever loses anything to the floor).
    """
    problems: list[Problem] = []

    def where(field_name: str, template: str, /, **params: object) -> None:
        problems.append(Problem.of(template, hand=number, field=field_name, **params))

    pitcher = table.player(hand.pitcher)
    if pitcher is None:
        where("pitcher", N_("the pitcher must be a seated player, got %(value)s"), value=repr(hand.pitcher))
    _check_bid(table.rules, hand.bid, where)
    sides, won = _points_won(table, hand.points, where)
    if hand.bids is not None and pitcher is not None and not problems:
        problems.extend(_auction_problems(table, hand, hand.bids, number=number, dealer=dealer, pitcher=pitcher))
    if problems:
        raise RulesError(problems)
    assert pitcher is not None
    return _scored(table, hand, number=number, dealer=dealer, pitcher=pitcher, sides=sides, won=won, before=before)


def _check_bid(rules: Rules, bid: int, where: _Report) -> None:
    """The bid is a whole number from the game's minimum bid to its top bid."""
    if _whole(bid) and rules.min_bid <= bid <= rules.total:
        return
    if _whole(bid) and rules.sheet.min_bid <= bid < rules.min_bid:  # The variant allows it; the house does not.
        where("bid", N_("this game's house rules make the minimum bid %(min)s, got %(value)s"), min=rules.min_bid, value=bid)
    else:
        where("bid", N_("bid must be %(min)s-%(max)s, got %(value)s"), min=rules.min_bid, max=rules.total, value=repr(bid))


def _points_won(table: Table, given: object, where: _Report) -> tuple[dict[str, str | None], dict[str, int]]:
    """The side of each of the game's points (None for one missing from play), and what each side won by them."""
    sides: dict[str, str | None] = {}
    won = dict.fromkeys(table.sides, 0)
    # ``dict`` first: every hand an import reads is one, and isinstance finds a dict without asking the abstract Mapping.
    if not isinstance(given, (dict, Mapping)):
        where("points", N_("points must give the side that won each point, got %(value)s"), value=repr(given))
        return sides, won
    side_of = table.side
    for key, value, optional in table.rules.scoring:
        if key not in given:
            where("points", N_('"%(key)s" is missing'), key=key)
            continue
        name = given[key]
        if name is None and optional:
            sides[key] = None
            continue
        side = sides[key] = side_of(name)
        if side is not None:
            won[side] += value
        else:
            _no_side(table, key, name, where)
    if len(given) > len(sides):  # Every key of the game's was counted in ``sides``: the rest are extra.
        for key in given:
            if key not in table.rules.points:
                message = N_('"%(key)s" is not a point of this game: its points are %(points)s')
                where("points", message, key=key, points=", ".join(table.rules.points))
    return sides, won


def _no_side(table: Table, key: str, name: object, where: _Report) -> None:
    """Why ``name`` names no side for point ``key``."""
    if name is None:
        where(key, N_("%(point)s is required"), point=key)
    elif table.partnership:
        where(key, N_("%(point)s must name a team or one of its players, got %(value)s"), point=key, value=repr(name))
    else:
        where(key, N_("%(point)s must name a seated player, got %(value)s"), point=key, value=repr(name))


def _auction_problems(table: Table, hand: Hand, bids: Bids, *, number: int, dealer: str, pitcher: str) -> list[Problem]:
    """What is wrong with the hand's auction, or with the pitcher and bid it makes beside those the hand gives."""
    try:
        bid_winner, auction_bid = auction_result(table, dealer, bids)
    except RulesError as error:
        return [replace(p, hand=number) for p in error.problems]
    if (bid_winner, auction_bid) != (pitcher, hand.bid):
        message = N_("the auction makes %(pitcher)s the pitcher with %(bid)s, not %(chosen)s with %(chosen_bid)s")
        return [Problem.of(message, hand=number, field="bids", pitcher=bid_winner, bid=auction_bid, chosen=pitcher, chosen_bid=hand.bid)]
    return []


def _scored(
    table: Table,
    hand: Hand,
    *,
    number: int,
    dealer: str,
    pitcher: str,
    sides: dict[str, str | None],
    won: dict[str, int],
    before: Mapping[str, int],
) -> ScoredHand:
    """A checked hand scored: set or made, the totals after it (floored at 0 unless ``negative``), won or not."""
    rules = table.rules
    bid = hand.bid
    pitcher_side = table.side(pitcher)
    assert pitcher_side is not None
    delta = dict(won)
    is_set = won[pitcher_side] < bid
    if is_set:
        delta[pitcher_side] = -bid
    if rules.negative:
        totals = {side: before[side] + delta[side] for side in table.sides}
    else:
        totals = {side: max(0, before[side] + delta[side]) for side in table.sides}
        delta = {side: totals[side] - before[side] for side in table.sides}
    if rules.hands is not None:
        winner = hand_count_winner(rules, number, totals)
    else:
        winner = pitcher_side if goes_out(rules, bid=bid, won=won[pitcher_side], score=totals[pitcher_side], is_set=is_set) else None
    return ScoredHand(
        number=number, dealer=dealer, pitcher=pitcher, pitcher_side=pitcher_side, bid=bid, points=sides,
        bids=tuple((table.player(n) or n, b) for n, b in hand.bids) if hand.bids is not None else None,
        won=won, delta=delta, totals=totals, set=is_set, winner=winner,
    )  # fmt: skip


def goes_out(rules: Rules, *, bid: int, won: int, score: int, is_set: bool) -> bool:
    """Whether the pitcher's side wins the game after a hand in which it won ``won`` and now has ``score``: only
    the pitcher's side can go out.

    In order: a made smudge (the top bid, and every point of the variant won, so each was in play and Game not
    tied) wins whatever the scores; otherwise the side must be at or above the target, and under ``made_bid`` it
    must also have made its bid.
    """
    if rules.smudge and bid == rules.total and won == rules.total:
        return True
    return score >= rules.target and (rules.going_out == "pitcher" or not is_set)


def hand_count_winner(rules: Rules, number: int, totals: Mapping[str, int]) -> str | None:
    """Who wins a game of a number of hands (``Rules.hands``) after hand ``number`` with these totals: once the
    hands are played, the side ahead; None before then, and while two or more sides share the lead.

    The rule sheets settle no tie. Here a tie is played off: one more hand at a time until a side leads, as a
    tournament director does when a table must have a winner (every game has one, and it counts as a game won).
    A smudge and the target decide nothing in such a game."""
    if rules.hands is None or number < rules.hands:
        return None
    leaders = _leaders(totals)
    return leaders[0] if len(leaders) == 1 else None


def _leaders(totals: Mapping[str, int]) -> list[str]:
    """The sides that share the highest total."""
    best = max(totals.values())
    return [side for side, total in totals.items() if total == best]


def hands_left(rules: Rules, played: int) -> int | None:
    """How many hands a game of a number of hands has left after ``played`` (0 once they are played, as in a tie
    played off); None for a game played to its target."""
    return None if rules.hands is None else max(0, rules.hands - played)


def paper_winner(rules: Rules, totals: Mapping[str, int], *, hands: int | None = None) -> str:
    """The winner of a game recorded from paper with these final totals (by side) and, if known, that many hands:
    the side ahead, which must be a result the rules could end a game with, else ``RulesError``.

    A game to a target: one side ahead, at or past the target (or, under the smudge rule, ahead at all). A game of
    a number of hands: one side ahead, after at least that many hands. With the number of hands known, no side
    can have gained more than the top bid a hand, nor lost more; with scores kept from going below zero, none is."""
    problems: list[Problem] = []
    if hands is not None and (not _whole(hands) or not 1 <= hands <= MAX_PAPER_HANDS):
        message = N_("the number of hands must be a whole number %(min)s-%(max)s, got %(value)s")
        problems.append(Problem.of(message, field="hands", min=1, max=MAX_PAPER_HANDS, value=repr(hands)))
        hands = None
    if rules.hands is not None and hands is not None and hands < rules.hands:
        message = N_("this game ends after %(hands)s hands, so it cannot have ended after %(value)s")
        problems.append(Problem.of(message, field="hands", hands=rules.hands, value=hands))
    for side, total in totals.items():
        if not _whole(total):
            problems.append(Problem.of(N_("a score must be a whole number, got %(value)s"), field=side, value=repr(total)))
        elif not rules.negative and total < 0:
            problems.append(Problem.of(N_("this game's scores never go below zero, got %(value)s"), field=side, value=total))
        elif hands is not None and abs(total) > hands * rules.total:
            message = N_("%(value)s cannot be scored in %(hands)s hands: a hand awards at most %(top)s")
            problems.append(Problem.of(message, field=side, value=total, hands=hands, top=rules.total))
    if problems:
        raise RulesError(problems)
    leaders = _leaders(totals)
    best = totals[leaders[0]]
    if len(leaders) > 1:
        raise RulesError(Problem.of(N_("a finished game has one side ahead: %(sides)s are tied"), sides=", ".join(leaders)))
    if rules.hands is None and best < rules.target and not rules.smudge:
        message = N_("the game is played to %(target)s, so the winner has at least %(target)s, not %(value)s")
        raise RulesError(Problem.of(message, field=leaders[0], target=rules.target, value=best))
    return leaders[0]


def not_out(rules: Rules, totals: Mapping[str, int], *, pitcher_side: str, winner: str | None) -> dict[str, str]:
    """Why each side at or past the target after a hand did not win: ``"not_pitcher"``, only the pitcher's side goes
    out; ``"set"``, the pitcher's side was set and goes out only by making its bid (``made_bid``; ``goes_out`` let no
    other pitcher's side at the target stay in). Empty once the hand won the game."""
    if winner is not None or rules.hands is not None:  # A game of a number of hands has no target to go out at.
        return {}
    return {side: "set" if side == pitcher_side else "not_pitcher" for side, total in totals.items() if total >= rules.target}


def score_next(
    table: Table, hand: Hand, *, number: int, last_dealer: str | None, before: Mapping[str, int], winner: str | None = None
) -> ScoredHand:
    """Score hand ``number`` from where the hands before it left the game: their totals, who dealt the last
    of them (None before the first hand) and who had won, if anyone. ``replay`` is this, hand after hand.
    """
    if winner is not None:
        raise RulesError(
            Problem.of(N_("the game was already over: %(winner)s won on hand %(number)s"), hand=number, winner=winner, number=number - 1)
        )
    dealer = table.player(hand.dealer) if hand.dealer is not None else next_dealer(table, last_dealer)
    if dealer is None:
        raise RulesError(
            Problem.of(N_("the dealer must be a seated player, got %(value)s"), hand=number, field="dealer", value=repr(hand.dealer))
        )
    return score_hand(table, hand, number=number, dealer=dealer, before=before)


def next_dealer(table: Table, last_dealer: str | None) -> str:
    """Who deals when the deal passes on: seat 1 first, then to the left."""
    return table.seats[0] if last_dealer is None else table.left_of(last_dealer)


def replay(table: Table, hands: Sequence[Hand]) -> Replay:
    """Score a whole game in order; every problem in it is raised together."""
    problems: list[Problem] = []
    scored: list[ScoredHand] = []
    totals: Mapping[str, int] = dict.fromkeys(table.sides, 0)
    winner = None
    dealer = None
    for number, hand in enumerate(hands, start=1):
        try:
            result = score_next(table, hand, number=number, last_dealer=dealer, before=totals, winner=winner)
        except RulesError as error:
            problems.extend(error.problems)
            if winner is not None:
                break  # One problem says the game was over; the hands after it are not checked.
            # Keep checking the other hands: totals skip this one, the deal still passes on.
            dealer = table.player(hand.dealer) or next_dealer(table, dealer)
            continue
        scored.append(result)
        totals = result.totals  # Each hand's totals are a new mapping, which nothing changes.
        winner = result.winner
        dealer = result.dealer
    if problems:
        raise RulesError(problems)
    return Replay(table=table, hands=tuple(scored), totals=totals, winner=winner)


def finishing_ranks[K](totals: Mapping[K, int], winner: K) -> dict[K, int]:
    """Each side's place in a finished game: the winner 1st, the others by final total (equal totals share a place).

    The winner comes first even with fewer points, since only the pitcher can go out.
    """
    others = [total for side, total in totals.items() if side != winner]
    return {side: 1 if side == winner else 2 + sum(t > total for t in others) for side, total in totals.items()}
