"""Importing a history file into a league: checked whole by ``scores.history``, stored all or nothing."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from ..history import document
from ..models import Game, Hand, HandScore, League, Player, Seat, Side
from .games import GameState, count_figures, hand_fields, set_result
from .leagues import players_named
from .ratings import update_ratings


@dataclasses.dataclass(frozen=True)
class ImportReport:
    """What an import did: the game ids it stored, those the league already had, and the file's names
    that are a league player spelt another way ("ann", "Ann")."""

    imported: tuple[str, ...]
    skipped: tuple[str, ...]
    matched: tuple[tuple[str, str], ...] = ()


IMPORT_BATCH = 500  # Games per round of bulk inserts: a few queries per round, memory bounded by the round.


def import_history(
    *, league: League, source: bytes | str, max_games: int | None = None, on_storing: Callable[[int], None] | None = None
) -> ImportReport:
    """Import a history file (``docs/history-format.md``) into a league, all or nothing.

    Every problem in the file is raised together (``document.HistoryError``) and
    nothing is stored; so is a file of more than ``max_games`` games. Games whose
    id the league already has are skipped, so the same file can be imported
    twice. Scores come from the rules engine, which scores each game once, while
    the file is checked; the file's derived fields are ignored. Games are stored
    in bulk, a batch of games at a time, and the league's ratings are updated
    once, at the end. ``on_storing`` is told how many games the file holds once
    it is checked, before anything is written.
    """
    # Checked before the transaction starts: on SQLite a transaction holds the one write lock (IMMEDIATE), and
    # other leagues' hands need not wait while a file is parsed and scored.
    games = document.read(source, max_games=max_games)
    if on_storing is not None:
        on_storing(len(games))
    with transaction.atomic():
        existing = set(Game.objects.filter(league=league).values_list("code", flat=True))
        new = [found for found in games if found.id not in existing]
        skipped = tuple(found.id for found in games if found.id in existing)
        players = players_named(league, list(dict.fromkeys(name for found in new for name in found.table.seats)))
        stored: list[Game] = []
        for batch in itertools.batched(new, IMPORT_BATCH):
            stored.extend(_store_new_games(league, batch, players))
        finished = [game for game in stored if game.is_finished]
        if finished:  # Once for the whole file, from its earliest game on, as record_hand would have left them.
            update_ratings(league=league, from_game=min(finished, key=lambda game: (game.played_on, game.pk)))
    matched = tuple((name, player.name) for name, player in players.items() if player.name != name)
    return ImportReport(imported=tuple(found.id for found in new), skipped=skipped, matched=matched)


IMPORT_HAND_FIELDS = (
    "game",
    "number",
    "dealer",
    "pitcher",
    "bid",
    "auction",
    "high",
    "low",
    "jack",
    "game_point",
    "set",
    "ends_game",
    "created_at",
)


def _pk(row: Seat | Side | None) -> int | None:
    return row.pk if row is not None else None


def _store_new_games(league: League, batch: Sequence[document.GameInput], players: dict[str, Player]) -> list[Game]:
    """start_game and record_hand for a batch of new games, in a few bulk inserts however many games and hands.

    The engine's results come from the check (``GameInput.result``), keyed by the names in the file; the rows
    are stored under the names start_game stores (a known player keeps the league's spelling).
    """
    today = timezone.localdate()
    games = Game.objects.bulk_create(
        Game(
            league=league,
            code=found.id,
            played_on=found.played_on or today,
            **found.table.rules.as_dict(),
            partnership=found.table.partnership,
        )
        for found in batch
    )
    sides = Side.objects.bulk_create(
        Side(game_id=game.pk, position=i, name=name if found.table.partnership else players[name].name)
        for game, found in zip(games, batch, strict=True)
        for i, name in enumerate(found.table.sides)
    )
    seats, states = [], []
    for game, found, first in zip(games, batch, itertools.accumulate((len(f.table.sides) for f in batch), initial=0), strict=False):
        table = found.table
        game_sides = dict(zip(table.sides, sides[first : first + len(table.sides)], strict=True))
        # A team may name its players otherwise than the seats do ("ann" for "Ann"): the seat's spelling is the key.
        side_of = {table.player(p): t.name for t in table.teams for p in t.players} if table.partnership else {n: n for n in table.seats}
        state = GameState(
            game=game,
            table=table,
            seats={
                name: Seat(game_id=game.pk, player_id=players[name].pk, position=i, side_id=game_sides[side_of[name]].pk)
                for i, name in enumerate(table.seats)
            },
            sides=game_sides,
            hands=[],
            inputs=[],
        )
        seats.extend(count_figures(state, found.result))  # Counted before the seats are inserted: no update afterwards.
        states.append(state)
    Seat.objects.bulk_create(seats, batch_size=1000)
    # Hands and their scores are most of the rows: inserted as plain rows (``RowsQuerySet.insert_rows``).
    created_at = connection.ops.adapt_datetimefield_value(timezone.now())
    auction = Hand._meta.get_field("auction")
    hands = []
    for state, found in zip(states, batch, strict=True):
        for scored in found.result.hands:
            fields = hand_fields(state, scored)
            hands.append(
                [
                    state.game.pk,
                    scored.number,
                    *(_pk(fields[name]) for name in ("dealer", "pitcher")),
                    scored.bid,
                    auction.get_db_prep_save(fields["auction"], connection) if fields["auction"] is not None else None,
                    *(_pk(fields[name]) for name in ("high", "low", "jack", "game_point")),
                    scored.set,
                    fields["ends_game"],
                    created_at,
                ]
            )
    Hand.objects.insert_rows(IMPORT_HAND_FIELDS, hands)
    hand_ids = {(game, number): pk for game, number, pk in Hand.objects.filter(game__in=games).values_list("game_id", "number", "pk")}
    scores = []
    for state, found in zip(states, batch, strict=True):
        for scored in found.result.hands:
            hand_id = hand_ids[state.game.pk, scored.number]
            scores.extend(
                (hand_id, side.pk, scored.won[name], scored.delta[name], scored.totals[name]) for name, side in state.sides.items()
            )
        set_result(state, found.result.winner)
        state.game.version = 1
    HandScore.objects.insert_rows(("hand", "side", "won", "delta", "total"), scores)
    # The winners, a statement per winning side's position rather than bulk_update's CASE over every game (a
    # tenth of an import's time): the side at that position in each of these games is the one the engine named.
    by_position: dict[int | None, list[int]] = {}
    for game in games:
        by_position.setdefault(game.winner.position if game.winner else None, []).append(game.pk)
    for position, ids in by_position.items():
        if position is None:
            Game.objects.filter(pk__in=ids).update(version=1)
        else:
            winner = Subquery(Side.objects.filter(game=OuterRef("pk"), position=position).values("pk"))
            Game.objects.filter(pk__in=ids).update(winner=winner, status=Game.Status.FINISHED, version=1)
    return games
