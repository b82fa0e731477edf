"""The rules of Pitch, as pure Python: the one source of truth for scoring.

Implements the rule sheet (docs/rules.md: players, bidding, scoring, winning) and the house
rules a table may choose (going out, minimum bid, dealer's steal, smudge):
one frozen ``Rules`` value per game, which every function that decides
anything takes through its ``Table``. No Django here: models, services, views,
import, export and standings all call these functions and never re-derive a
score themselves.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .names import clean as clean_name
from .names import key as name_key

MIN_PLAYERS = 2
MAX_PLAYERS = 7
MIN_TARGET = 1
MAX_TARGET = 99
DEFAULT_TARGET = 7
BIDS = (1, 2, 3, 4)
PITCH = 4  # Bidding 4 is "pitching": it ends the auction at once.
STUCK_DEALER_MINIMUM = 2
POINTS = ("high", "low", "jack", "game")
# House rules: the first of each is the rule sheet's own rule, the default.
GOING_OUT = ("pitcher", "made_bid")  # "pitcher": a set pitcher still at the target wins; "made_bid": it does not.
MIN_BIDS = (1, 2)


def N_(message: str) -> str:
    """Mark a message for translation, unchanged: this module stays free of Django.

    ``makemessages --keyword=N_`` collects these; ``scores.problems`` translates them.
    """
    return message


def english(key: str, value: object) -> str:
    """A problem's parameter as the English message shows it (``scores.problems`` has the translated twin)."""
    if key == "allowed":  # The bids a player may make, None for pass: "pass, 3 or 4".
        words = ["pass" if b is None else str(b) for b in value]  # type: ignore[union-attr]
        return " or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1]
    if key == "said":  # A bid as given: pass, or the value as written.
        return "pass" if value is None else repr(value)
    if key == "point":  # One of POINTS.
        return str(value).capitalize()
    return str(value)


@dataclass(frozen=True)
class Problem:
    """One thing wrong, with where it is: ``hand 3: bid must be 1-4, got 5``.

    ``message`` is English. The engine's own problems also keep the message
    before its parameters were put in (``template``, marked with ``N_``) and the
    parameters, so ``scores.problems`` can say the same in the reader's language.
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


_key = name_key  # Names are compared in their normal form and without case (``scores.names``); cached there.


@dataclass(frozen=True)
class Rules:
    """The rules one game is played by: its target and its house rules.

    The defaults are the rule sheet's. ``as_dict`` gives the history format's
    ``rules`` keys (all of them) as plain JSON values.
    """

    target: int = DEFAULT_TARGET
    going_out: str = GOING_OUT[0]
    min_bid: int = MIN_BIDS[0]
    steal: bool = True
    smudge: bool = False

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RulesError(problems)

    def problems(self) -> list[Problem]:
        problems = []
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
        if not _whole(self.min_bid) or self.min_bid not in MIN_BIDS:
            problems.append(Problem.of(N_("min_bid must be 1 or 2, got %(value)s"), field="min_bid", value=repr(self.min_bid)))
        for key in ("steal", "smudge"):
            if type(getattr(self, key)) is not bool:
                problems.append(
                    Problem.of(N_("%(key)s must be true or false, got %(value)s"), field=key, key=key, value=repr(getattr(self, key)))
                )
        return problems

    @functools.cached_property  # Asked for every hand scored.
    def bids(self) -> tuple[int, ...]:
        """The bids these rules allow at all."""
        return tuple(b for b in BIDS if b >= self.min_bid)

    @property
    def house(self) -> dict[str, object]:
        """The house rules that differ from the rule sheet's (the target aside)."""
        default = Rules(target=self.target)
        return {key: value for key, value in self.as_dict().items() if key != "target" and getattr(default, key) != value}

    def as_dict(self) -> dict[str, object]:
        return {"target": self.target, "going_out": self.going_out, "min_bid": self.min_bid, "steal": self.steal, "smudge": self.smudge}


@dataclass(frozen=True)
class Team:
    name: str
    players: tuple[str, str]


@dataclass(frozen=True)
class Table:
    """Who sits where and the rules the game is played by.

    ``seats`` are the players' names clockwise. ``teams`` is empty for solo
    play, or two teams of two partners sitting opposite each other.
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
        if len(self.seats) != 4 or len(self.teams) != 2 or any(len(t.players) != 2 for t in self.teams):
            return [Problem.of(N_("partnership play needs exactly 4 players in 2 teams of 2"), field="teams")]
        problems = []
        names = [t.name for t in self.teams]
        for name in names:
            if not isinstance(name, str) or not _key(name):
                problems.append(Problem.of(N_("every team needs a name"), field="teams"))
            elif _key(name) in player_keys:
                problems.append(Problem.of(N_('team name "%(name)s" is also a player\'s name'), field="teams", name=name))
        if len({_key(n) for n in names if isinstance(n, str)}) != 2:
            problems.append(Problem.of(N_("the two teams need different names"), field="teams"))
        seat_keys = [_key(s) for s in self.seats]
        all_seated = True
        for team in self.teams:
            try:
                positions = sorted(seat_keys.index(_key(p)) for p in team.players)
            except ValueError:
                problems.append(Problem.of(N_('team "%(team)s" names a player who is not seated'), field="teams", team=team.name))
                all_seated = False
                continue
            if positions[1] - positions[0] != 2:
                problems.append(
                    Problem.of(
                        N_('partners in team "%(team)s" must sit opposite each other (seats 1 and 3, or 2 and 4)'),
                        field="teams",
                        team=team.name,
                    )
                )
        # Two teams naming the same partners would leave the other two players on no side.
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

    def player(self, name: object) -> str | None:
        """The seated player's name as seated, or None."""
        return self._players.get(_key(name)) if isinstance(name, str) else None

    def side(self, name: object) -> str | None:
        """The side a name means: a side itself, or a player's team."""
        return self._sides.get(_key(name)) if isinstance(name, str) else None

    def left_of(self, player: str) -> str:
        """The next seat clockwise: where the deal and the bidding pass to."""
        return self.seats[(self.seats.index(player) + 1) % len(self.seats)]

    def bidding_order(self, dealer: str) -> tuple[str, ...]:
        """From the dealer's left round to the dealer, who bids last."""
        start = self.seats.index(dealer) + 1
        return self.seats[start:] + self.seats[:start]


Bids = tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class Hand:
    """What the table reports after a hand: who pitched, the bid, who won each point.

    The point fields name a side (or, in partnership play, one of its players);
    ``jack`` is None when the Jack was not in play, ``game`` None when tied.
    ``dealer`` None means the deal passed to the left; ``bids`` is the optional
    auction as (player, bid or None for pass) pairs.
    """

    pitcher: str
    bid: int
    high: str
    low: str
    jack: str | None = None
    game: str | None = None
    dealer: str | None = None
    bids: Bids | None = None


@dataclass(frozen=True)
class ScoredHand:
    """One hand after the rules are applied. Mappings are keyed by side."""

    number: int
    dealer: str
    pitcher: str
    pitcher_side: str
    bid: int
    high: str
    low: str
    jack: str | None
    game: str | None
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

    Empty when the auction is over.
    """
    order = table.bidding_order(dealer)
    if len(bids) >= len(order) or any(b == PITCH for _, b in bids):
        return ()
    highest = max((b for _, b in bids if b is not None), default=0)
    allowed = table.rules.bids
    if len(bids) < len(order) - 1:
        return (None, *(b for b in allowed if b > highest))
    if highest == 0:  # Everyone before the dealer passed: the dealer is stuck.
        return tuple(b for b in allowed if b >= STUCK_DEALER_MINIMUM)
    if table.rules.steal:  # The dealer may steal: bid the same as the high bid.
        return (None, *(b for b in allowed if b >= highest))
    return (None, *(b for b in allowed if b > highest))


def forbidding_rule(table: Table, dealer: str, bids: Sequence[tuple[str, int | None]], bid: object) -> str | None:
    """The house rule (``"min_bid"`` or ``"steal"``) that refuses ``bid`` next, when the rule sheet would allow it."""
    sheet = replace(table, rules=Rules(target=table.target))
    if not _whole(bid) or bid in allowed_bids(table, dealer, bids) or bid not in allowed_bids(sheet, dealer, bids):
        return None
    return "min_bid" if bid not in table.rules.bids else "steal"


# What a bid refused by a house rule says: the message names the rule.
HOUSE_RULE_REFUSALS = {
    "min_bid": N_("%(player)s may bid %(allowed)s, not %(said)s: this game's house rules make the minimum bid 2"),
    "steal": N_("%(player)s may bid %(allowed)s, not %(said)s: this game's house rules do not let the dealer steal the bid"),
}


def auction_result(table: Table, dealer: str, bids: Sequence[tuple[str, int | None]]) -> tuple[str, int]:
    """Check a whole auction; return the pitcher and the bid."""
    order = table.bidding_order(dealer)
    pitcher, high = None, 0
    for i, (name, bid) in enumerate(bids):
        where = f"bids, bid {i + 1}"
        allowed = allowed_bids(table, dealer, bids[:i])
        if not allowed:
            raise RulesError(Problem.of(N_("the auction was already over: a bid of 4 ends it and everyone bids once"), field=where))
        player = table.player(name)
        if player != order[i]:
            raise RulesError(Problem.of(N_("%(expected)s bids next, not %(name)s"), field=where, expected=order[i], name=name))
        if not (bid is None or _whole(bid)) or bid not in allowed:
            template = HOUSE_RULE_REFUSALS.get(
                forbidding_rule(table, dealer, bids[:i], bid) or "", N_("%(player)s may bid %(allowed)s, not %(said)s")
            )
            raise RulesError(Problem.of(template, field=where, player=player, allowed=allowed, said=bid))
        if bid is not None:
            pitcher, high = player, bid
    if allowed_bids(table, dealer, bids) != ():
        raise RulesError(Problem.of(N_("the auction is not finished: %(player)s has not bid"), field="bids", player=order[len(bids)]))
    assert pitcher is not None  # The stuck dealer always bids.
    return pitcher, high


def score_hand(table: Table, hand: Hand, *, number: int, dealer: str, before: Mapping[str, int]) -> ScoredHand:
    """Apply the scoring rules to one hand, given the totals before it."""
    problems = []

    def where(field_name: str, template: str, **params: object) -> None:
        problems.append(Problem.of(template, hand=number, field=field_name, **params))

    pitcher = table.player(hand.pitcher)
    if pitcher is None:
        where("pitcher", N_("the pitcher must be a seated player, got %(value)s"), value=repr(hand.pitcher))
    if not _whole(hand.bid) or hand.bid not in BIDS:
        where("bid", N_("bid must be 1-4, got %(value)s"), value=repr(hand.bid))
    elif hand.bid not in table.rules.bids:
        where("bid", N_("this game's house rules make the minimum bid %(min)s, got %(value)s"), min=table.rules.min_bid, value=hand.bid)
    sides: dict[str, str | None] = {}
    for point in POINTS:
        name = getattr(hand, point)
        if name is None and point in ("jack", "game"):
            sides[point] = None
            continue
        sides[point] = table.side(name)
        if sides[point] is None:
            if name is None:
                where(point, N_("%(point)s is required"), point=point)
            elif table.partnership:
                where(point, N_("%(point)s must name a team or one of its players, got %(value)s"), point=point, value=repr(name))
            else:
                where(point, N_("%(point)s must name a seated player, got %(value)s"), point=point, value=repr(name))
    if hand.bids is not None and pitcher is not None and not problems:
        try:
            bid_winner, bid = auction_result(table, dealer, hand.bids)
        except RulesError as error:
            problems.extend(replace(p, hand=number) for p in error.problems)
        else:
            if (bid_winner, bid) != (pitcher, hand.bid):
                message = N_("the auction makes %(pitcher)s the pitcher with %(bid)s, not %(chosen)s with %(chosen_bid)s")
                where("bids", message, pitcher=bid_winner, bid=bid, chosen=pitcher, chosen_bid=hand.bid)
    if problems:
        raise RulesError(problems)
    assert pitcher is not None
    pitcher_side = table.side(pitcher)
    assert pitcher_side is not None
    won = dict.fromkeys(table.sides, 0)
    for side in sides.values():
        if side is not None:
            won[side] += 1
    delta = dict(won)
    is_set = won[pitcher_side] < hand.bid
    if is_set:
        delta[pitcher_side] = -hand.bid
    totals = {side: before[side] + delta[side] for side in table.sides}
    winner = pitcher_side if goes_out(table.rules, bid=hand.bid, won=won[pitcher_side], total=totals[pitcher_side], is_set=is_set) else None
    return ScoredHand(
        number=number, dealer=dealer, pitcher=pitcher, pitcher_side=pitcher_side, bid=hand.bid,
        high=sides["high"], low=sides["low"], jack=sides["jack"], game=sides["game"],
        bids=tuple((table.player(n) or n, b) for n, b in hand.bids) if hand.bids is not None else None,
        won=won, delta=delta, totals=totals, set=is_set, winner=winner,
    )  # fmt: skip


def goes_out(rules: Rules, *, bid: int, won: int, total: int, is_set: bool) -> bool:
    """Whether the pitcher's side wins the game after a hand: only the pitcher's side can go out.

    In order: a made smudge (bid 4, won all four points) wins whatever the scores; otherwise the side must be
    at or above the target, and under ``made_bid`` it must also have made its bid.
    """
    if rules.smudge and bid == PITCH and won == len(POINTS):
        return True
    return total >= rules.target and (rules.going_out == "pitcher" or not is_set)


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
    totals = dict.fromkeys(table.sides, 0)
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
        totals = dict(result.totals)
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
