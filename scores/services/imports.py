"""Importing a history file into a league: checked whole by ``scores.history``, stored all or nothing."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from .. import rules
from ..history import document
from ..models import Game, Hand, HandScore, League, Player, Seat, Side
from .games import GameState, count_figures, hand_fields, score_rows, set_result
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


@transaction.atomic
def import_history(*, league: League, source: bytes | str) -> ImportReport:
    """Import a history file (``shared/spec/history-format.md``) into a league, all or nothing.

    Every problem in the file is raised together (``document.HistoryError``) and
    nothing is stored. Games whose id the league already has are skipped, so the
    same file can be imported twice. Scores come from the rules engine; the
    file's derived fields are ignored. Games are stored in bulk, a batch of games
    at a time, and the league's ratings are updated once, at the end.
    """
    games = document.read(source)
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


def _store_new_games(league: League, batch: Sequence[document.GameInput], players: dict[str, Player]) -> list[Game]:
    """start_game and record_hand for a batch of new games, in a few bulk inserts however many games and hands."""
    today = timezone.localdate()
    by_name = {player.name: player for player in players.values()}
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
    # Seat and side names as start_game stores them: a known player keeps the league's spelling.
    tables = [
        rules.Table(
            seats=tuple(players[name].name for name in found.table.seats),
            rules=found.table.rules,
            teams=tuple(rules.Team(t.name, tuple(players[found.table.player(p)].name for p in t.players)) for t in found.table.teams),
        )
        for found in batch
    ]
    sides = Side.objects.bulk_create(
        Side(game=game, position=i, name=name) for game, table in zip(games, tables, strict=True) for i, name in enumerate(table.sides)
    )
    side_at = {(side.game_id, side.name): side for side in sides}
    seats, states, results = [], [], []
    for game, table, found in zip(games, tables, batch, strict=True):
        side_of = {p: t.name for t in table.teams for p in t.players} if table.partnership else {n: n for n in table.seats}
        state = GameState(
            game=game,
            table=table,
            seats={
                name: Seat(game=game, player=by_name[name], position=i, side=side_at[game.pk, side_of[name]])
                for i, name in enumerate(table.seats)
            },
            sides={name: side_at[game.pk, name] for name in table.sides},
            hands=[],
            inputs=[],
            last_dealer=None,
        )
        result = state.replay(found.hands)
        seats.extend(count_figures(state, result))  # Counted before the seats are inserted: no update afterwards.
        states.append(state)
        results.append(result)
    Seat.objects.bulk_create(seats, batch_size=1000)
    hands = [
        Hand(game=state.game, number=scored.number, **hand_fields(state, scored))
        for state, result in zip(states, results, strict=True)
        for scored in result.hands
    ]
    Hand.objects.bulk_create(hands, batch_size=2000)
    scores = []
    position = 0
    for state, result in zip(states, results, strict=True):
        for scored in result.hands:
            scores.extend(score_rows(state, hands[position], scored))
            position += 1
        set_result(state, result.winner)
        state.game.version = 1
    HandScore.objects.bulk_create(scores, batch_size=2000)
    Game.objects.bulk_update(games, ["winner", "status", "version"], batch_size=IMPORT_BATCH)
    return games
