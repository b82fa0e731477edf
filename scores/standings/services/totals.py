"""The players' figures kept per season and kind of game (``SeasonTotal``), for the standings of a season or of all
time, of every kind of game or of one.

A game's seats count in the season of the day it was played, in the row of its kind (``Game.partnership``), once
it is finished. Every change is an addition
to the rows (``F()``), never a count started again, so games ending at the same moment in one league both count:
a game that ends, is changed or reopens (``count_game``), an import's games (``count_games``), the games a new
season takes from the one before (``move_games``), a player merged into another (``merge_totals``).
The tests work every row out again from the seats and compare.
"""

from __future__ import annotations

import bisect
import datetime
import operator
from collections.abc import Iterable, Mapping

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum

from ...leagues.models import League, Player
from ...table.models import Game, Seat
from ..models import Season, SeasonTotal

# A seat in a finished game, as the totals count it: whether its side won, and its figures (``Seat.FIGURES``).
Counted = tuple[bool, tuple[int, ...]]


class Seasons:
    """A league's seasons by their first day, to find the season of a day (None: before the first one)."""

    def __init__(self, league_id: int) -> None:
        found = list(Season.objects.filter(league_id=league_id).order_by("starts_on").values_list("starts_on", "pk"))
        self.starts = [start for start, _pk in found]
        self.pks = [pk for _start, pk in found]

    def of(self, day: datetime.date) -> int | None:
        i = bisect.bisect_right(self.starts, day)
        return self.pks[i - 1] if i else None

    def bounds(self, season_id: int | None) -> tuple[datetime.date | None, datetime.date | None]:
        """The season's first day and the next season's (None: open that way)."""
        i = self.pks.index(season_id) + 1 if season_id is not None else 0
        return (self.starts[i - 1] if i else None), (self.starts[i] if i < len(self.starts) else None)


def _rows(season_id: int | None, partnership: bool) -> QuerySet[SeasonTotal]:
    rows = SeasonTotal.objects.filter(partnership=partnership)
    return rows.filter(season_id=season_id) if season_id is not None else rows.filter(season__isnull=True)


def _add(season_id: int | None, partnership: bool, changes: Mapping[int, tuple[int, ...]]) -> None:
    """Add to the players' rows of the season and kind (made if need be) these counts (``SeasonTotal.COUNTS``), by
    player. One UPDATE for the players whose counts alike (partners, say)."""
    made = [SeasonTotal(player_id=p, season_id=season_id, partnership=partnership) for p in changes]
    SeasonTotal.objects.bulk_create(made, ignore_conflicts=True)
    alike: dict[tuple[int, ...], list[int]] = {}
    for player, counts in changes.items():
        alike.setdefault(tuple(counts), []).append(player)
    for counts, players in alike.items():
        values = {field: F(field) + value for field, value in zip(SeasonTotal.COUNTS, counts, strict=True) if value}
        if values:
            _rows(season_id, partnership).filter(player__in=players).update(**values)


def _latest_game(seasons: Seasons, season_id: int | None, partnership: bool, *, but: int | None = None) -> Subquery:
    """The latest finished game of the row's player (``OuterRef``) of the kind in the season, ``but`` one."""
    start, end = seasons.bounds(season_id)
    seats = Seat.objects.filter(player=OuterRef("player"), game__status=Game.Status.FINISHED, game__partnership=partnership)
    if start:
        seats = seats.filter(game__played_on__gte=start)
    if end:
        seats = seats.filter(game__played_on__lt=end)
    if but is not None:
        seats = seats.exclude(game_id=but)
    return Subquery(seats.order_by("-game__played_on", "-game_id").values("game_id")[:1])


def _later_than(game: Game) -> Q:
    return (
        Q(last_game__isnull=True)
        | Q(last_game__played_on__lt=game.played_on)
        | Q(last_game__played_on=game.played_on, last_game_id__lt=game.pk)
    )


def count_game(*, game: Game, before: Mapping[int, Counted] | None, after: Mapping[int, Counted] | None) -> None:
    """The game's seats counted again in its season: what they counted (``before``, by player; None while the game
    was not finished) taken away, what they count now (``after``) added."""
    if before is None and after is None:
        return
    seasons = Seasons(game.league_id)
    season_id = seasons.of(game.played_on)
    counted = after if after is not None else before
    assert counted is not None  # Returned above when both are None.
    players = list(counted)
    changes = {}
    for player in players:
        was = before[player] if before is not None else None
        now = after[player] if after is not None else None
        games = (now is not None) - (was is not None)
        wins = (now is not None and now[0]) - (was is not None and was[0])
        figures = [(now[1][i] if now else 0) - (was[1][i] if was else 0) for i in range(len(Seat.FIGURES))]
        changes[player] = (games, wins, *figures)
    _add(season_id, game.partnership, changes)
    rows = _rows(season_id, game.partnership).filter(player__in=players)
    if before is None:
        rows.filter(_later_than(game)).update(last_game=game)
    elif after is None:
        rows.filter(last_game=game).update(last_game=_latest_game(seasons, season_id, game.partnership, but=game.pk))


def _sums(seats: QuerySet[Seat], *group: str) -> QuerySet:
    """The seats' counts (``SeasonTotal.COUNTS``) summed by ``group``."""
    return seats.values(*group).annotate(
        games_=Count("id"), wins_=Count("id", filter=Q(game__winner=F("side"))), **{f"{figure}_": Sum(figure) for figure in Seat.FIGURES}
    )


def _counts(row: dict) -> tuple[int, ...]:
    return tuple(row[f"{field}_"] for field in SeasonTotal.COUNTS)


def count_games(*, league: League, games: Iterable[tuple[datetime.date, bool, Mapping[int, Counted]]]) -> None:
    """Count these finished games of the league (just stored in bulk: an import) in their seasons: each game's day,
    its kind (``Game.partnership``) and its seats as ``count_game`` counts them, by player."""
    seasons = Seasons(league.pk)
    by_season: dict[tuple[int | None, bool], dict[int, list[int]]] = {}
    for day, partnership, counted in games:
        season = by_season.setdefault((seasons.of(day), partnership), {})
        for player, (won, figures) in counted.items():
            counts = season.setdefault(player, [0] * len(SeasonTotal.COUNTS))
            counts[:] = map(operator.add, counts, (1, won, *figures))
    for (season_id, partnership), changes in by_season.items():
        _add(season_id, partnership, {player: tuple(counts) for player, counts in changes.items()})
        latest = _latest_game(seasons, season_id, partnership)
        _rows(season_id, partnership).filter(player__in=list(changes)).update(last_game=latest)


def move_games(*, league: League, season: Season, previous: Season | None) -> None:
    """A new season, just stored, takes the games played from its first day on from the season before (``previous``;
    None: the games before the first season). The caller holds those games' rows locked."""
    seats = Seat.objects.filter(game__league=league, game__status=Game.Status.FINISHED, game__played_on__gte=season.starts_on)
    by_kind: dict[bool, dict[int, tuple[int, ...]]] = {}
    for row in _sums(seats, "player_id", "game__partnership"):
        by_kind.setdefault(row["game__partnership"], {})[row["player_id"]] = _counts(row)
    seasons = Seasons(league.pk)
    for partnership, moved in by_kind.items():
        _add(previous.pk if previous else None, partnership, {player: tuple(-n for n in counts) for player, counts in moved.items()})
        _add(season.pk, partnership, moved)
        for season_id in (previous.pk if previous else None, season.pk):
            latest = _latest_game(seasons, season_id, partnership)
            _rows(season_id, partnership).filter(player__in=list(moved)).update(last_game=latest)


def merge_totals(*, keep: Player, drop: Player) -> None:
    """``drop``'s rows added to ``keep``'s, season by season (their seats have just moved to ``keep``)."""
    seasons = Seasons(keep.league_id)
    rows = list(SeasonTotal.objects.filter(player=drop).values_list("season_id", "partnership", *SeasonTotal.COUNTS))
    for season_id, partnership, *counts in rows:
        _add(season_id, partnership, {keep.pk: tuple(counts)})
        _rows(season_id, partnership).filter(player=keep).update(last_game=_latest_game(seasons, season_id, partnership))
