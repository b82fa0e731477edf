"""A league's games read from the database and written in the history format, as JSON or a zip of CSV files.

It reads the results the services stored (``HandScore`` rows), never replaying a
game: a fixed number of queries per chunk of games, so a league of any size is
exported in bounded memory. The document itself is ``scores.history.document``'s.
"""

from __future__ import annotations

import bisect
import csv
import datetime
import io
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from itertools import batched, chain, groupby
from operator import itemgetter

from django.db.models import QuerySet
from django.utils import timezone

from ..standings.models import Season
from ..standings.selectors.standings import standings, standings_columns
from ..table.models import Game, Hand, HandScore, Seat, Side
from .document import (
    GAMES_HEADER,
    RULES_VALUES,
    SCORES_HEADER,
    SEASON_HEADER,
    SeasonInput,
    StoredGame,
    cell,
    game_document,
    game_json,
    hand_rows,
    hands_header,
    json_document,
    point_keys,
    score_rows,
    standings_header,
)

CHUNK_SIZE = 200  # Games per round of export queries: memory stays bounded, queries stay few.


HAND_COLUMNS = ("game", "dealer", "pitcher", "bid", "auction", "points", "set")


class _SeasonOf:
    """The season of a game's day in its league (None: before the first), from the games' leagues' seasons, in one query."""

    def __init__(self, games: QuerySet[Game]) -> None:
        self.starts: dict[int, list[datetime.date]] = {}
        self.seasons: dict[int, list[SeasonInput]] = {}
        found = Season.objects.filter(league_id__in=games.values("league_id")).order_by("starts_on")
        for league_id, name, starts_on in found.values_list("league_id", "name", "starts_on"):
            self.starts.setdefault(league_id, []).append(starts_on)
            self.seasons.setdefault(league_id, []).append(SeasonInput(name, starts_on))

    def __call__(self, league_id: int, day: datetime.date) -> SeasonInput | None:
        i = bisect.bisect_right(self.starts.get(league_id, []), day)
        return self.seasons[league_id][i - 1] if i else None


def stored_games(games: QuerySet[Game], chunk_size: int | None = None) -> Iterator[dict]:
    """The games as documents of the format (with their derived fields), oldest first.

    Reads stored results only (nothing is replayed): five queries per chunk of
    ``chunk_size`` games, however many hands they have.
    """
    for game in _stored(games, chunk_size):
        yield game_document(game)


def _chunk_queries(ids: list[int]) -> list[QuerySet]:
    """The export's queries for a chunk of games: their sides, seats, hands and scores, each in game pk order."""
    return [
        Side.objects.filter(game_id__in=ids).order_by("game_id", "position").values_list("game_id", "pk", "name"),
        Seat.objects.filter(game_id__in=ids)
        .order_by("game_id", "position")
        .values_list("game_id", "pk", "position", "side_id", "player__name"),
        Hand.objects.filter(game_id__in=ids).order_by("game_id", "number").values_list(*HAND_COLUMNS),
        # Hand by hand, and side by side in pk order, which needs no join to the sides.
        HandScore.objects.filter(hand__game_id__in=ids)
        .order_by("hand__game_id", "hand__number", "side_id")
        .values_list("won", "delta", "total"),
    ]


def _by_game(rows: list[tuple]) -> dict[int, list[tuple]]:
    """Rows whose first column is the game's pk (and ordered by it), grouped by game without that column."""
    return {game_id: [row[1:] for row in group] for game_id, group in groupby(rows, key=itemgetter(0))}


def _stored(games: QuerySet[Game], chunk_size: int | None = None, *, seasons: bool = False) -> Iterator[StoredGame]:
    """Each game with its sides, seats, hands and scores: five queries per chunk of games, as plain values; with
    ``seasons``, each game's season too (one query more)."""
    chunk_size = chunk_size or CHUNK_SIZE
    season_of = _SeasonOf(games) if seasons else None
    ordered = games.order_by("played_on", "pk").values_list(
        "pk", "code", "played_on", *RULES_VALUES, "hands_per_round", "partnership", "winner_id", "league_id", "on_paper", "paper_hands"
    )
    for chunk in batched(ordered.iterator(chunk_size=chunk_size), chunk_size):
        ids = [game[0] for game in chunk]
        rows = [list(queryset) for queryset in _chunk_queries(ids)]
        sides, seats = _by_game(rows[0]), _by_game(rows[1])
        # The game's pk stays first in a hand's row (see HAND_COLUMNS): a slice of every hand's row would buy nothing.
        hands = {game_id: list(group) for game_id, group in groupby(rows[2], key=itemgetter(0))}
        figures = list(chain.from_iterable(rows[3]))
        starts, start = {}, 0
        for pk in sorted(ids):
            starts[pk] = start
            start += 3 * len(sides.get(pk, ())) * len(hands.get(pk, ()))
        if start != len(figures):
            # Never the case for what the services stored: every hand has a score for each of its game's sides.
            raise RuntimeError(f"the hands of games {ids} have {len(figures) // 3} side scores stored, not {start // 3}")
        paper = _paper_totals([game[0] for game in chunk if game[-2]])
        for pk, code, played_on, *settings, hands_per_round, partnership, winner_id, league_id, _on_paper, paper_hands in chunk:
            game_hands = hands.get(pk, [])
            start = starts[pk]
            game_scores = figures[start : start + 3 * len(sides[pk]) * len(game_hands)]
            game_rules = Game(**dict(zip(RULES_VALUES, settings, strict=True)), hands_per_round=hands_per_round).rules
            season = season_of(league_id, played_on) if season_of is not None else None
            yield StoredGame(
                code, played_on, game_rules, partnership, winner_id, sides[pk], seats[pk], game_hands, game_scores, season,
                paper_totals=paper.get(pk), paper_hands=paper_hands,
            )  # fmt: skip


def _paper_totals(ids: list[int]) -> dict[int, dict[str, int]]:
    """The final scores of these games recorded from paper, by game and side name: its seats' points (one query, and
    none for a chunk without such a game)."""
    totals: dict[int, dict[str, int]] = {}
    if ids:
        for game_id, side, points in Seat.objects.filter(game_id__in=ids).values_list("game_id", "side__name", "points"):
            totals.setdefault(game_id, {})[side] = points
    return totals


def export_json(
    games: QuerySet[Game], *, league_name: str, exported_at: datetime.datetime | None = None, seasons: bool = False
) -> Iterator[str]:
    """The document for these games, as chunks of JSON text, a game at a time; with ``seasons``, each game's season."""
    games_json = (game_json(game) for game in _stored(games, seasons=seasons))
    yield from json_document(games_json, league_name=league_name, exported_at=exported_at or timezone.now())


def game_rows(games: QuerySet[Game], *, seasons: bool = False) -> Iterator[tuple]:
    """games.csv: one row per game with the rules it was scored by, in one query; with ``seasons``, its season's name
    and first day after them (empty before the league's first season), in one query more."""
    columns = ("code", "played_on", *RULES_VALUES, "partnership", "winner__name")
    rows = games.order_by("played_on", "pk").values_list(*columns, "league_id").iterator(chunk_size=CHUNK_SIZE)
    if not seasons:
        yield from (row[:-1] for row in rows)
        return
    season_of = _SeasonOf(games)
    for *row, league_id in rows:
        season = season_of(league_id, row[1])
        yield (*row, season.name, season.starts_on) if season else (*row, "", "")


def standings_rows(league) -> list[tuple]:
    """standings.csv: the league page's standings (``selectors.standings``), its header and a row per player: a
    column per kind of point its finished games play, and points per hand empty unless they all play the same points."""
    columns = {column.key for column in standings_columns(league)}
    keys = point_keys([columns])

    def number(value: float | None, places: int) -> float | str:
        return "" if value is None else round(value, places)

    rows: list[tuple] = [standings_header(keys)]
    for r in standings(league):
        per_hand = number(r.points_per_hand, 3) if "points_per_hand" in columns else ""
        figures = (r.name, r.games, r.wins, number(r.win_percent, 1), r.points, r.hands, per_hand, r.pitched, r.made)
        rows.append((*figures, number(r.made_percent, 1), r.set, *(r.won[key] for key in keys), r.streak, number(r.rating, 3)))
    return rows


def _later(function, *args) -> Iterator:
    """The function's result, computed when the stream gets there."""
    yield function(*args)


class _Outbox:
    """A write-only file whose bytes are taken out as they arrive, so zipfile can stream."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        self.size += len(data)
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        self.size = 0
        return data


def export_csv_zip(games: QuerySet[Game], *, league=None, seasons: bool = False) -> Iterator[bytes]:
    """A zip of games.csv, hands.csv, scores.csv (and standings.csv for a ``league``), as chunks of bytes; with
    ``seasons``, games.csv gives each game's season.

    The CSV files are UTF-8 with a byte-order mark, which is how spreadsheets
    know the names are UTF-8.
    """
    outbox = _Outbox()
    keys = point_keys(points.split() for points in games.order_by().values_list("points", flat=True).distinct())
    files: list[tuple[str, Sequence[str] | None, Iterable[Iterable[tuple]]]] = [
        ("games.csv", (*GAMES_HEADER, *SEASON_HEADER) if seasons else GAMES_HEADER, [game_rows(games, seasons=seasons)]),
        ("hands.csv", hands_header(keys), (hand_rows(game, keys) for game in stored_games(games))),
        ("scores.csv", SCORES_HEADER, (score_rows(game) for game in stored_games(games))),
    ]
    if league is not None:
        files.append(("standings.csv", None, _later(standings_rows, league)))  # Its header comes with its rows.
    # The stubs ask a file to write to for close(), which zipfile never calls on a file it was given.
    with zipfile.ZipFile(outbox, "w", compression=zipfile.ZIP_DEFLATED) as archive:  # type: ignore[call-overload]
        for name, header, groups in files:
            with io.TextIOWrapper(archive.open(name, "w"), encoding="utf-8-sig", newline="") as text:
                writer = csv.writer(text)
                if header is not None:
                    writer.writerow(header)
                for rows in groups:
                    writer.writerows([cell(value) for value in row] for row in rows)
                    if outbox.size >= 64 * 1024:
                        text.flush()
                        yield outbox.take()
    yield outbox.take()
