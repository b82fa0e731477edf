"""Importing a history file into a league: checked whole by ``scores.history``, stored all or nothing."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import gc
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import rules
from ..leagues.models import League, Player
from ..leagues.services import players_named
from ..standings.models import PlayerRating, Season
from ..standings.services.ratings import RATING_FIELDS, rate_again
from ..standings.services.totals import Counted, Seasons, count_games, move_games
from ..table.models import Game, Hand, HandScore, Seat, Side
from ..table.services import paper_figures, seat_figures
from . import bulk, document


@dataclasses.dataclass(frozen=True)
class ImportReport:
    """What an import did: the game ids it stored, those the league already had, and the file's names
    that are a league player spelt another way ("ann", "Ann")."""

    imported: tuple[str, ...]
    skipped: tuple[str, ...]
    matched: tuple[tuple[str, str], ...] = ()


IMPORT_BATCH = 2000  # Games per round of bulk inserts: a few queries per round, memory bounded by the round.


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
    with _collector_paused():
        return _import_history(league=league, source=source, max_games=max_games, on_storing=on_storing)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused for the import: it makes no reference cycles to collect, but builds and
    keeps several objects for every hand of the file, and the collector walked them all again and again as they
    grew. Unused memory is still freed as it is left."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _import_history(
    *, league: League, source: bytes | str, max_games: int | None, on_storing: Callable[[int], None] | None
) -> ImportReport:
    # Checked before the transaction starts: on SQLite a transaction holds the one write lock (IMMEDIATE), and
    # other leagues' hands need not wait while a file is parsed and scored.
    games = document.read(source, max_games=max_games)
    if on_storing is not None:
        on_storing(len(games))
    with transaction.atomic():
        # One import into a league at a time: another import of the same file waits here, then finds its games there.
        list(League.objects.select_for_update().filter(pk=league.pk))  # Only the lock is wanted.
        existing = set(Game.objects.filter(league=league).values_list("code", flat=True))
        new = [found for found in games if found.id not in existing]
        skipped = tuple(found.id for found in games if found.id in existing)
        players = players_named(league, list(dict.fromkeys(name for found in new for name in found.table.seats)))
        _place_in_seasons(league, new)
        finished: list[Finished] = []
        for batch in itertools.batched(new, IMPORT_BATCH):
            finished.extend(_store_new_games(league, batch, players))
        if finished:  # Once for the whole file, from its earliest game on, as record_hand would have left them.
            pk, played_on, *_rest = min(finished, key=lambda game: (game[1], game[0]))
            rated = rate_again(league=league, from_game=Game(pk=pk, played_on=played_on))
            bulk.insert_rows(PlayerRating, RATING_FIELDS, rated)
            count_games(league=league, games=[(day, kind, counted) for _pk, day, kind, counted in finished])
    matched = tuple((name, player.name) for name, player in players.items() if player.name != name)
    return ImportReport(imported=tuple(found.id for found in new), skipped=skipped, matched=matched)


def _place_in_seasons(league: League, games: Sequence[document.GameInput]) -> None:
    """The seasons the new games name (``document.SeasonInput``, checked against each other by ``document.read``),
    made in the league when it lacks them, as a new season is started: each after the latest, taking the games
    from its first day on. HistoryError, with the game that names it, for one that disagrees with the league's
    seasons (a name or a first day of another season, or a start inside a season already begun), or a game the
    league's seasons would place in another season than the one it names."""
    named: dict[str, tuple[document.SeasonInput, str]] = {}
    for found in games:
        if found.season is not None:
            named.setdefault(found.season.name.casefold(), (found.season, found.id))
    if not named:
        return
    existing = list(Season.objects.filter(league=league).order_by("starts_on"))
    previous = existing[-1] if existing else None
    for season in _seasons_to_make(existing, named.values()):
        # The league's games it takes, locked, as a new season does (services.start_season).
        list(Game.objects.select_for_update().filter(league=league, played_on__gte=season.starts_on).values_list("pk"))
        made = Season.objects.create(league=league, name=season.name, starts_on=season.starts_on)
        move_games(league=league, season=made, previous=previous)
        previous = made
    _check_placed(league, games)


def _seasons_to_make(existing: list[Season], named: Iterable[tuple[document.SeasonInput, str]]) -> list[document.SeasonInput]:
    """The seasons named (each with the game that names it) that the league lacks, in the order they start;
    HistoryError for those that disagree with its ``existing`` seasons (in the order they start)."""
    by_name = {season.name.casefold(): season for season in existing}
    by_day = {season.starts_on: season for season in existing}
    problems: list[document.Problem] = []
    to_make: list[document.SeasonInput] = []
    for season, game_id in sorted(named, key=lambda named: named[0].starts_on):
        same_name, same_day = by_name.get(season.name.casefold()), by_day.get(season.starts_on)
        if same_name is not None and same_name == same_day:
            continue
        params = {"season": json.dumps(season.name, ensure_ascii=False), "start": season.starts_on.isoformat()}
        other = same_name or same_day
        if other is not None:
            message = _("season %(season)s from %(start)s is not the league's season %(other)s from %(other_start)s")
            params |= {"other": json.dumps(other.name, ensure_ascii=False), "other_start": other.starts_on.isoformat()}
        elif existing and season.starts_on <= existing[-1].starts_on:
            message = _("season %(season)s would start on %(start)s, not after the league's latest season %(other)s from %(other_start)s")
            params |= {"other": json.dumps(existing[-1].name, ensure_ascii=False), "other_start": existing[-1].starts_on.isoformat()}
        else:
            to_make.append(season)
            continue
        problems.append(document.Problem(message % params, field="season", game=game_id))
    if problems:
        raise document.HistoryError(problems)
    return to_make


def _check_placed(league: League, games: Sequence[document.GameInput]) -> None:
    """HistoryError for each game the league's seasons place in another season than the one it names."""
    seasons = Seasons(league.pk)
    names = dict(Season.objects.filter(league=league).values_list("pk", "name"))
    problems: list[document.Problem] = []
    for found in games:
        if found.season is None or found.played_on is None:
            continue
        placed = seasons.of(found.played_on)
        if placed is None or names[placed].casefold() != found.season.name.casefold():
            problems.append(document.season_problem(found, found.season, found.played_on, names.get(placed, "") if placed else ""))
    if problems:
        raise document.HistoryError(problems)


GAME_FIELDS = ("league", "code", "played_on", *Game.fields_of(rules.Rules()), "partnership", "status", "share_token", "version")
GAME_FIELDS += ("created_at", "updated_at", "on_paper", "paper_hands")


HAND_FIELDS: tuple[str, ...] = ("game", "number", "dealer", "pitcher", "bid", "auction", "points", "set", "ends_game")
HAND_FIELDS += ("created_at",)


# A finished game as an import stored it: its pk, day, kind (``Game.partnership``) and seats as the season's totals
# count them (``totals.Counted``, by player).
Finished = tuple[int, datetime.date, bool, dict[int, Counted]]


def _store_new_games(league: League, batch: Sequence[document.GameInput], players: dict[str, Player]) -> list[Finished]:
    """start_game and record_hand for a batch of new games, in a few bulk inserts however many games and hands;
    the finished games, for the ratings and the season's totals.

    Every row is inserted as plain values (``history.bulk.insert_rows``), and the ids the next rows point at
    are read back in one query a table. The engine's results come from the check (``GameInput.result``),
    keyed by the names in the file; the rows are stored under the names start_game stores (a known player
    keeps the league's spelling). Each game is inserted in progress, as start_game leaves it, and its winner
    set once its sides are in (the database refuses a finished game without one).
    """
    ops = connection.ops
    today, now = timezone.localdate(), ops.adapt_datetimefield_value(timezone.now())
    played_on = [found.played_on or today for found in batch]
    in_progress = Game.Status.IN_PROGRESS
    bulk.insert_rows(
        Game,
        GAME_FIELDS,
        [
            (
                league.pk,
                found.id,
                ops.adapt_datefield_value(day),
                *Game.fields_of(found.table.rules).values(),
                found.table.partnership,
                in_progress,
                League.new_token(),
                1,
                now,
                now,
                found.on_paper,
                found.paper_hands,
            )
            for found, day in zip(batch, played_on, strict=True)
        ],
    )
    pks = dict(Game.objects.filter(league=league, code__in=[found.id for found in batch]).values_list("code", "pk"))
    games = [pks[found.id] for found in batch]
    bulk.insert_rows(
        Side,
        ("game", "position", "name"),
        [
            (game, i, name if found.table.partnership else players[name].name)
            for game, found in zip(games, batch, strict=True)
            for i, name in enumerate(found.table.sides)
        ],
    )
    sides = {(game, position): pk for game, position, pk in Side.objects.filter(game__in=games).values_list("game", "position", "pk")}
    # Only finished games count in the standings: a game in progress keeps zeros, as record_hand leaves it.
    figures = [
        paper_figures(found.table, found.result.totals)
        if found.on_paper
        else seat_figures(found.table, found.result.hands if found.result.winner is not None else ())
        for found in batch
    ]
    bulk.insert_rows(
        Seat,
        ("game", "player", "position", "side", *Seat.FIGURES),
        [
            (game, players[name].pk, i, sides[game, found.table.sides.index(found.table.side(name))], *game_figures[name])
            for game, found, game_figures in zip(games, batch, figures, strict=True)
            for i, name in enumerate(found.table.seats)
        ],
    )
    seats = {(game, position): pk for game, position, pk in Seat.objects.filter(game__in=games).values_list("game", "position", "pk")}
    # The hands as hand_fields gives them to record_hand, by ids; the games in pk order, as the hands' ids are read.
    auction, points = Hand._meta.get_field("auction"), Hand._meta.get_field("points")

    @functools.cache  # Most hands of a file share their points, and who won each, with some hand before them.
    def stored_points(keys: tuple[str, ...], positions: tuple[int | None, ...]) -> object:
        return points.get_db_prep_save(dict(zip(keys, positions, strict=True)), connection)

    hands, scored_hands = [], []
    for game, found in sorted(zip(games, batch, strict=True), key=lambda pair: pair[0]):
        table = found.table
        seat = {name: seats[game, i] for i, name in enumerate(table.seats)}
        side_position = {name: i for i, name in enumerate(table.sides)} | {None: None}
        position = {name: i for i, name in enumerate(table.seats)}
        side_pks = [(name, sides[game, i]) for i, name in enumerate(table.sides)]
        for scored in found.result.hands:
            bids = None if scored.bids is None else auction.get_db_prep_save([[position[n], b] for n, b in scored.bids], connection)
            hands.append(
                (
                    game,
                    scored.number,
                    seat[scored.dealer],
                    seat[scored.pitcher],
                    scored.bid,
                    bids,
                    stored_points(table.rules.points, tuple(map(side_position.__getitem__, scored.points.values()))),
                    scored.set,
                    scored.winner is not None,
                    now,
                )
            )
            scored_hands.append((scored, side_pks))
    bulk.insert_rows(Hand, HAND_FIELDS, hands)
    hand_ids = Hand.objects.filter(game__in=games).order_by("game_id", "number").values_list("pk", flat=True)
    scores = [
        (pk, side, scored.won[name], scored.delta[name], scored.totals[name])
        for pk, (scored, side_pks) in zip(hand_ids, scored_hands, strict=True)
        for name, side in side_pks
    ]
    bulk.insert_rows(HandScore, ("hand", "side", "won", "delta", "total"), scores)
    # The winners, a statement per winning side's position rather than bulk_update's CASE over every game: the
    # side at that position in each of these games is the one the engine named.
    by_position: dict[int, list[int]] = {}
    for game, found in zip(games, batch, strict=True):
        if found.result.winner is not None:
            by_position.setdefault(found.table.sides.index(found.result.winner), []).append(game)
    for winner_position, ids in by_position.items():
        winner = Subquery(Side.objects.filter(game=OuterRef("pk"), position=winner_position).values("pk"))
        Game.objects.filter(pk__in=ids).update(winner=winner, status=Game.Status.FINISHED)
    finished = []
    for game, day, found, game_figures in zip(games, played_on, batch, figures, strict=True):
        if (won_by := found.result.winner) is not None:
            counted = {players[name].pk: (found.table.side(name) == won_by, counts) for name, counts in game_figures.items()}
            finished.append((game, day, found.table.partnership, counted))
    return finished
