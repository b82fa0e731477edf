"""A card night's page: its rounds with every table's progress, what each round did with the players left over, and
the night's standings; and the version its live page is cached by."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, OuterRef, QuerySet, Subquery, Sum

from ..engine import planner, problems, rules
from ..leagues.models import Player
from ..table.models import Game, HandScore, Seat, Side
from .models import Bye, Night, Round

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _Total(TypedDict):
    total: int | None  # The side's total after its last hand; None before the first.


@dataclasses.dataclass(frozen=True)
class TableRow:
    """A table of a round: its game, and each side with its players and total so far."""

    game: Game
    sides: list[dict]
    hands: int

    @property
    def hands_left(self) -> int | None:
        """How many hands the table has left in a round of a number of hands (None: it plays to the target)."""
        return rules.hands_left(self.game.rules, self.hands)

    @property
    def number(self) -> int:
        assert self.game.table is not None  # A card night's game is played at a table (the night_game_has_a_table constraint).
        return self.game.table


@dataclasses.dataclass(frozen=True)
class RoundRow:
    number: int
    tables: list[TableRow]
    byes: list[Player]
    notes: list[str]

    @property
    def playing(self) -> int:
        return sum(not table.game.is_finished for table in self.tables)


def night_version(night: Night) -> str:
    """What changes whenever the night's page would: the night's own version, and its games' (each bumped on every
    write to the game). One query."""
    games = Game.objects.filter(round__night=night).aggregate(count=Count("id"), versions=Sum("version"))
    return f"{night.version}.{games['count']}.{games['versions'] or 0}"


def night_games(night: Night) -> QuerySet[Game]:
    """The night's games, round by round, table by table."""
    return Game.objects.filter(round__night=night).order_by("round__number", "table")


def night_context(night: Night) -> dict:
    """The night's rounds (latest first), each table with its sides, players and totals, the byes and the notes, the
    night's standings, and how its rounds have mixed the players: six queries however many rounds and tables."""
    rounds = list(Round.objects.filter(night=night).order_by("number"))
    last_total = HandScore.objects.filter(side=OuterRef("pk")).order_by("-hand__number").values("total")[:1]
    games = list(night_games(night).select_related("winner", "scorer").annotate(hands_played=Count("hands")))
    sides: dict[int, list[WithAnnotations[Side, _Total]]] = {}
    for side in Side.objects.filter(game__round__night=night).annotate(total=Subquery(last_total)).order_by("game_id", "position"):
        sides.setdefault(side.game_id, []).append(side)
    seated: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game__round__night=night).select_related("player").order_by("game_id", "position"):
        seated.setdefault(seat.game_id, []).append(seat)
    # A table recorded from paper has no hands: its sides' totals are its seats' points.
    on_paper = {game.pk for game in games if game.on_paper}
    paper = {seat.side_id: seat.points for game_id in on_paper for seat in seated.get(game_id, [])}
    byes: dict[int, list[Player]] = {}
    for bye in Bye.objects.filter(round__night=night).select_related("player").order_by("player__name"):
        byes.setdefault(bye.round_id, []).append(bye.player)
    names = {seat.player_id: seat.player.name for seats in seated.values() for seat in seats}
    names |= {player.pk: player.name for players in byes.values() for player in players}
    rows = []
    played: list[tuple[list[planner.PlannedTable], tuple[int, ...]]] = []
    for round_ in rounds:
        tables, planned = [], []
        for game in (game for game in games if game.round_id == round_.pk):
            game.league = night.league  # For its address, without reading the league again.
            game_sides = sides.get(game.pk, [])
            seats = seated.get(game.pk, [])
            tables.append(
                TableRow(
                    game=game,
                    sides=[
                        {
                            "side": side,
                            "total": paper.get(side.pk, side.total or 0),
                            "players": [seat.player for seat in seats if seat.side_id == side.pk],
                            "won": side.pk == game.winner_id,
                        }
                        for side in game_sides
                    ],
                    hands=game.hands_played,
                )
            )
            players = tuple(seat.player_id for seat in seats)
            teams = tuple(tuple(s.player_id for s in seats if s.side_id == side.pk) for side in game_sides) if game.partnership else ()
            planned.append(planner.PlannedTable(players, teams))
        round_byes = byes.get(round_.pk, [])
        played.append((planned, tuple(sorted(p.pk for p in round_byes))))
        notes = planner.notes(planned, played[-1][1], night.seating)
        rows.append(RoundRow(round_.number, tables, round_byes, [problems.note(note, names) for note in notes]))
    finished = Seat.objects.filter(game__round__night=night, game__status=Game.Status.FINISHED)
    lines = [
        planner.Line(player, side == winner, points, sets)
        for player, side, winner, points, sets in finished.values_list("player_id", "side_id", "game__winner_id", "points", "sets")
    ]
    standing = [
        {"rank": s.rank, "name": names[s.player], "player": s.player, "games": s.games, "wins": s.wins, "points": s.points, "sets": s.sets}
        for s in planner.standings(lines, players=names, by_points=night.hands_per_round is not None)
    ]
    latest = rows[-1] if rows else None
    kept = planner.rotation_kept(played, night.seating, night.seed) if night.rotation else len(played)
    return {
        "night": night,
        "rounds": rows[::-1],
        "latest": latest,
        "standings": standing,
        "present": [*(seat.player for table in latest.tables for seat in seated.get(table.game.pk, [])), *latest.byes] if latest else [],
        "over": latest is not None and latest.number >= night.rounds and not latest.playing,
        # How the rounds have mixed the players (a partnership night), and for a night planned as a full rotation the
        # round from which it was seated by search instead (the players changed), if it was.
        "quality": planner.quality((tables for tables, _byes in played), names) if night.partnership and played else None,
        "fell_back": kept + 1 if kept < len(played) else None,
    }


# A game to the target has no set length: a table's score sheet has rows for a long one, and still fits on a page.
LONG_GAME_HANDS = 20


# A round of a set number of hands that ends tied is played off a hand at a time (rules.hand_count_winner): its sheet
# keeps rows for that after the round's hands.
PLAY_OFF_ROWS = 2


def score_sheet_rows(night: Night) -> int:
    """How many hands a table's printed score sheet has rows for."""
    if night.hands_per_round:
        return night.hands_per_round + PLAY_OFF_ROWS
    return LONG_GAME_HANDS


@dataclasses.dataclass(frozen=True)
class PrintedSide:
    """A side of a printed table: the letter its score sheet marks a point it won with, its name and its players."""

    letter: str
    name: str
    players: list[str]


@dataclasses.dataclass(frozen=True)
class PrintedTable:
    """A table of a round as its card and score sheet print it: the seats clockwise from seat 1, the sides, the
    game's points, and who deals each hand of the sheet (the deal passing to the left, as the rules engine has it)."""

    game: Game
    seats: list[Seat]
    sides: list[PrintedSide]
    points: tuple[str, ...]
    dealers: list[str]
    first_bidder: str


def printed_table(game: Game, seats: list[Seat], rows: int) -> PrintedTable:
    """A table's card and sheet from its seats (in seat order, each with its player and side)."""
    sides: dict[int, Side] = {}
    for seat in seats:
        sides.setdefault(seat.side_id, seat.side)
    ordered = sorted(sides.values(), key=lambda side: side.position)
    players = {side.pk: [seat.player.name for seat in seats if seat.side_id == side.pk] for side in ordered}
    teams = tuple(rules.Team(side.name, tuple(players[side.pk])) for side in ordered) if game.partnership else ()
    table = rules.Table(seats=tuple(seat.player.name for seat in seats), rules=game.rules, teams=teams)
    dealers = [rules.next_dealer(table, None)]
    while len(dealers) < rows:
        dealers.append(rules.next_dealer(table, dealers[-1]))
    return PrintedTable(
        game=game,
        seats=seats,
        sides=[PrintedSide(chr(ord("A") + i), side.name, players[side.pk]) for i, side in enumerate(ordered)],
        points=table.rules.points,
        dealers=dealers,
        first_bidder=table.bidding_order(dealers[0])[0],
    )


def round_printout(night: Night, round_: Round) -> dict:
    """A round's table cards and score sheets: each table with its seats and sides, and who sat the round out. Three
    queries."""
    games = list(Game.objects.filter(round=round_).order_by("table"))
    seated: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game__round=round_).select_related("player", "side").order_by("game_id", "position"):
        seated.setdefault(seat.game_id, []).append(seat)
    rows = score_sheet_rows(night)
    return {
        "night": night,
        "round": round_,
        "tables": [printed_table(game, seated[game.pk], rows) for game in games],
        "byes": [bye.player for bye in Bye.objects.filter(round=round_).select_related("player").order_by("player__name")],
    }
