"""A game read: its table and hands in the rules engine's terms, and its scoreboard as the game, watch and public pages show it.

``load_game`` is where every game page and every write to a game starts: the seats, sides and hands in a
fixed number of queries, with the names the engine knows them by.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from ..engine import charts, names, rules
from .models import Game, Hand, HandScore, Seat, Side


@dataclasses.dataclass(frozen=True)
class GameState:
    """A stored game as the rules engine sees it, with the rows behind the names."""

    game: Game
    table: rules.Table
    seats: dict[str, Seat]
    sides: dict[str, Side]
    hands: list[Hand]
    inputs: list[rules.Hand]
    hands_read: bool = True  # False: ``load_game(hands=False)`` read none, and ``hands`` and ``inputs`` are empty.

    @functools.cached_property
    def last_dealer(self) -> str | None:
        """Who dealt the last hand; None before the first. From the hands read, or else one query when asked
        (a hand saved without its auction never asks)."""
        if self.hands_read:
            return self.inputs[-1].dealer if self.inputs else None
        dealer_id = Hand.objects.filter(game=self.game).order_by("-number").values_list("dealer_id", flat=True).first()
        return next((name for name, seat in self.seats.items() if seat.pk == dealer_id), None)

    @property
    def next_dealer(self) -> str:
        """The left of the last hand's dealer; seat 1 deals the first hand."""
        return rules.next_dealer(self.table, self.last_dealer)

    def replay(self, inputs: Sequence[rules.Hand] | None = None) -> rules.Replay:
        return rules.replay(self.table, self.inputs if inputs is None else inputs)


def load_game(game: Game, *, hands: bool = True) -> GameState:
    """Read a game's seats, sides and hands into the engine's terms, in two queries.

    ``hands=False`` reads no hand, in one query: the table is what a write needs, without reading a long
    game's every hand (who deals next is then read when asked: ``GameState.last_dealer``).

    Game.DoesNotExist if the game has no seats: every game is started with its seats, so another request deleted it
    after ``game`` was read (a write says so, ``services.GameDeleted``; a page is not found, ``access.not_found_if_deleted``).
    """
    # Each seat comes with its player and side: every write and every game page starts here. Only the columns the
    # engine and the pages use (not the seat's figures, say): fewer to build into the three objects of each row.
    seats = list(
        Seat.objects.filter(game=game)
        .select_related("player", "side")
        .only("position", "player__name", "side__name", "side__position")
        .order_by("position")
    )
    if not seats:
        raise Game.DoesNotExist
    sides_by_pk: dict[int, Side] = {}
    for seat in seats:  # Partners share one Side.
        seat.side = sides_by_pk.setdefault(seat.side_id, seat.side)
    sides = sorted(sides_by_pk.values(), key=lambda side: side.position)
    seat_names = {seat.pk: seat.player.name for seat in seats}
    teams: tuple[rules.Team, ...] = ()
    if game.partnership:
        teams = tuple(rules.Team(side.name, tuple(seat_names[s.pk] for s in seats if s.side_id == side.pk)) for side in sides)
    table = rules.Table(seats=tuple(seat_names[s.pk] for s in seats), rules=game.rules, teams=teams)
    stored = list(Hand.objects.filter(game=game).order_by("number")) if hands else []
    seats_by_pk = {seat.pk: seat for seat in seats}
    for hand in stored:  # The rows a hand points at, from those just read: a page shows them without a query.
        hand.dealer, hand.pitcher = seats_by_pk[hand.dealer_id], seats_by_pk[hand.pitcher_id]
    with_points(stored, table, sides)
    names_by_position = {seat.position: seat_names[seat.pk] for seat in seats}
    inputs = [
        rules.Hand(
            pitcher=seat_names[hand.pitcher_id],
            bid=hand.bid,
            points={key: None if side is None else side.name for key, side in hand.won},
            dealer=seat_names[hand.dealer_id],
            bids=tuple((names_by_position[p], b) for p, b in hand.auction) if hand.auction is not None else None,
        )
        for hand in stored
    ]
    return GameState(
        game=game,
        table=table,
        seats={seat_names[s.pk]: s for s in seats},
        sides={s.name: s for s in sides},
        hands=stored,
        inputs=inputs,
        hands_read=hands,
    )


def with_points(hands: list[Hand], table: rules.Table, sides: Sequence[Side]) -> list[Hand]:
    """The hands, each with who won each of the game's points as ``won``: (point key, its ``Side`` or None where
    it was missing), in the game's order (``Hand.points`` holds the sides' positions)."""
    at = {side.position: side for side in sides} | {None: None}
    for hand in hands:
        hand.won = [(key, at[hand.points[key]]) for key in table.rules.points]
    return hands


def with_side_scores(hands: list[Hand]) -> list[Hand]:
    """The hands, each with its scores as ``side_scores`` in the order of the sides (as ``record_hand`` leaves
    them), read in one query."""
    by_hand: dict[int, list[HandScore]] = {hand.pk: [] for hand in hands}
    if by_hand:
        for score in HandScore.objects.filter(hand__in=list(by_hand)).order_by("hand_id", "side__position"):
            by_hand[score.hand_id].append(score)
    for hand in hands:
        hand.side_scores = by_hand[hand.pk]
    return hands


def scoreboard_context(game: Game) -> dict:
    """Sides with their totals, who deals next and the hands with each side's change, in a fixed number of queries."""
    state = load_game(game)
    hands = with_side_scores(state.hands)
    context = scoreboard(game, state, hands[-1] if hands else None, len(hands), state.next_dealer)
    context["hands"] = hands
    return context


def scoreboard(game: Game, state: GameState, last: Hand | None, number: int, dealer: str) -> dict:
    """The scoreboard after hand ``number`` (``last``, its scores prefetched), ``dealer`` dealing next."""
    sides = list(state.sides.values())
    totals = {side.pk: 0 for side in sides}
    deltas = {score.side_id: score.delta for score in last.side_scores} if last is not None else {}
    if last is not None:
        totals.update({score.side_id: score.total for score in last.side_scores})
    elif game.on_paper:  # No hands: its final scores are its seats' points (one query, for such a game only).
        totals.update(Seat.objects.filter(game=game).values_list("side_id", "points"))
    best = max(totals.values(), default=0)
    members = {side.pk: [name for name, seat in state.seats.items() if seat.side_id == side.pk] for side in sides}

    def leading(side) -> bool:
        # After a win the winner is marked, who may have fewer points than a side that was never the pitcher.
        return side.pk == game.winner_id if game.is_finished else totals[side.pk] == best and last is not None

    rows = [
        {"side": side, "total": totals[side.pk], "delta": deltas.get(side.pk, 0), "leading": leading(side), "members": members[side.pk]}
        for side in sides
    ]
    return {
        "game": game,
        "league": game.league,
        "state": state,
        "sides": sides,
        "rows": rows,
        "totals": {side.name: totals[side.pk] for side in sides},
        "last_number": number,
        "next_number": number + 1,
        "dealer": dealer,
        "first_bidder": state.table.left_of(dealer),
        # A game of a number of hands: how many are left (0: tied after them, played off a hand at a time).
        "hands_left": rules.hands_left(state.table.rules, number),
        "last_hand": last,
        "last_delta": next(score.delta for score in last.side_scores if score.side_id == last.pitcher.side_id) if last is not None else 0,
        "not_out": not_out(game, state, last, {side.name: totals[side.pk] for side in sides}) if last is not None else [],
        "short_names": names.short_forms(state.table.seats),  # The history shows names short (the short_name filter).
    }


@dataclasses.dataclass(frozen=True)
class NotOut:
    """A side at or past the target that has not won, and why (``rules.not_out``'s reason: "set" or "not_pitcher")."""

    side: str
    total: int
    target: int
    reason: str


def not_out(game: Game, state: GameState, last: Hand, totals: dict[str, int]) -> list[NotOut]:
    """After the last hand, each side at or past the target that has not won, as ``rules.not_out`` says."""
    winner = next((name for name, side in state.sides.items() if side.pk == game.winner_id), None)
    pitcher_side = next(name for name, side in state.sides.items() if side.pk == last.pitcher.side_id)
    reasons = rules.not_out(state.table.rules, totals, pitcher_side=pitcher_side, winner=winner)
    return [NotOut(side, totals[side], state.table.rules.target, reason) for side, reason in reasons.items()]


def score_chart(game: Game, sides: Sequence[Side], totals: Sequence[dict[int, int]]) -> charts.Chart:
    """The game's score chart from each hand's {side id: total after it}; while it goes on, room for the next hands."""
    named = [(side.pk, side.name) for side in sides]
    return charts.score_chart(named, totals, game.target, going_on=not game.is_finished)


def score_chart_steps(game: Game, sides: Sequence[Side]) -> tuple[charts.Chart, tuple[charts.Step, ...] | None]:
    """The score chart after the game's last hand, and what that hand added to the chart before it (None when the
    chart is drawn anew: its scale moved). One query: every hand's totals."""
    by_hand: dict[int, dict[int, int]] = {}
    for number, side, total in HandScore.objects.filter(hand__game=game).order_by().values_list("hand__number", "side_id", "total"):
        by_hand.setdefault(number, {})[side] = total
    totals = [by_hand[number] for number in sorted(by_hand)]
    after = score_chart(game, sides, totals)
    return after, charts.steps(score_chart(game, sides, totals[:-1]), after) if len(totals) > 1 else None
