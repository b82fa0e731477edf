"""Standings of a league, read from the stored results (selectors: reads only, no writes).

``standings(league, ...)`` returns plain rows for the league page, the public
link and exports, and never replays a game. A season's, or all time's, of every
kind of game or of one, are one query over the totals the services keep per
player, season and kind of game (``SeasonTotal``: the seats' figures of its
finished games, summed), with the streak and rating kept on each player or,
for a past season or one kind, those of the rating row of their last game of
it. One variant, or a range of days, sums each seat's figures in its finished
game (``Seat.FIGURES``, counted by the services when the game ended) in three
queries. The number of queries never grows with the games or the players.

Only finished games count; a game recorded from paper counts in games, wins and
points, and in no figure per hand (it has none). In partnership play a team's points, wins and
points won count for both partners; hands pitched count for the one who
pitched. ``standings_columns`` says which columns the games counted call for:
a column per kind of point those games play, and points per hand only when
they all play the same points (a hand of the 10-point game is worth more than
one of the 4-point game).
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum

from ...engine import rules
from ...leagues.models import VARIANT_NAMES, League, Player
from ...table.models import Game, Seat
from ..models import PlayerRating, Season, SeasonTotal

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


@dataclasses.dataclass
class Row:
    """One player's line in the standings."""

    player_id: int
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    hands: int = 0
    pitched: int = 0
    made: int = 0
    set: int = 0
    won: dict[str, int] = dataclasses.field(default_factory=dict)  # Hands their side won each point in, by key, as CATALOGUE.
    paper_games: int = 0  # Games recorded from paper: in games, wins and points, and in no figure per hand.
    paper_points: int = 0
    streak: int = 0  # +3: won the last three; -2: lost the last two.
    rating: float | None = None
    archived: bool = False  # Left out of new games and card nights; their games still count.

    @property
    def win_percent(self) -> float | None:
        return 100 * self.wins / self.games if self.games else None

    @property
    def points_per_hand(self) -> float | None:
        """The points of the games that have hands, per hand: a game recorded from paper has none to count by."""
        return (self.points - self.paper_points) / self.hands if self.hands else None

    @property
    def made_percent(self) -> float | None:
        return 100 * self.made / self.pitched if self.pitched else None

    @property
    def streak_length(self) -> int:
        """The games of the streak, won or lost (the page says "W3", "L2")."""
        return abs(self.streak)


@dataclasses.dataclass(frozen=True)
class Column:
    """A column of the standings, by its key (its words: ``standings.presentation``)."""

    key: str
    value: Callable[[Row], Any]  # A value of the column's type (a name, a count, a share...), or None where the row has none.


def _kind_column(key: str) -> Column:
    return Column(key, lambda r: r.won[key])


# In the order shown: the name, games, wins and points first, what a phone shows without sliding the table.
COLUMNS = (
    Column("name", lambda r: r.name.casefold()),
    Column("games", lambda r: r.games),
    Column("wins", lambda r: r.wins),
    Column("points", lambda r: r.points),
    Column("points_per_hand", lambda r: r.points_per_hand),
    Column("win_percent", lambda r: r.win_percent),
    Column("pitched", lambda r: r.pitched),
    Column("made_percent", lambda r: r.made_percent),
    Column("set", lambda r: r.set),
    *(_kind_column(key) for key in rules.CATALOGUE),
    Column("streak", lambda r: r.streak),
    Column("rating", lambda r: r.rating),
)
COLUMN_KEYS = frozenset(c.key for c in COLUMNS)


def _games(league: League, start: datetime.date | None, end: datetime.date | None, mode: str, variant: str, of: str = "game__") -> Q:
    """The finished games of the league in the season, of one kind or both, of one variant or all: a filter on seats
    (``of`` "game__"), or on games (``of`` "")."""
    q = Q(**{f"{of}league": league, f"{of}status": Game.Status.FINISHED})
    if start:
        q &= Q(**{f"{of}played_on__gte": start})
    if end:
        q &= Q(**{f"{of}played_on__lte": end})
    if mode:
        q &= Q(**{f"{of}partnership": mode == "partnership"})
    if variant:
        q &= Q(**{f"{of}variant": variant})
    return q


def standings_columns(
    league: League, *, start: datetime.date | None = None, end: datetime.date | None = None, mode: str = "", variant: str = ""
) -> list[Column]:
    """The columns the standings of these games show, in one query: the kinds of point only those some game plays,
    and points per hand only when every game plays the same points (so that a hand is worth as much in each)."""
    point_sets = set(
        Game.objects.filter(_games(league, start, end, mode, variant, of="")).values_list("points", flat=True).distinct().order_by()
    )
    played = {key for points in point_sets for key in points.split()}
    hidden = {key for key in rules.CATALOGUE if key not in played}
    if len(point_sets) > 1:
        hidden.add("points_per_hand")
    return [column for column in COLUMNS if column.key not in hidden]


def variants_played(league: League) -> list[str]:
    """The variants the league has games of, in the catalogue's order (``VARIANT_NAMES``), in one query."""
    played = set(Game.objects.filter(league=league).order_by().values_list("variant", flat=True).distinct())
    return [name for name in VARIANT_NAMES if name in played]


def standings(
    league: League,
    *,
    season: Season | None = None,
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    mode: str = "",
    variant: str = "",
    sort: str = "points",
    descending: bool = True,
) -> list[Row]:
    """Every player who finished a game in the season, with their figures, sorted.

    ``season`` is one of ``selectors.seasons``' (None: all time); ``start`` and ``end`` a range of days instead.
    ``mode`` is "" for all games, "solo" or "partnership"; ``variant`` "" for all variants or one's name. Rows
    without a value in the sort column (no hands pitched, say) go last either way.

    A season or all time, of every kind of game or of one, is one query: the totals kept per player, season and
    kind (``SeasonTotal``), with each player's streak and rating as kept on the player, or at the season's end in
    the rating row of their last game of it (``_kept``). A range of days or one variant sums the seats, in three queries:
    the figures, the players with the rating at the range's end (a subquery per player when it has an end), and
    the streaks of the games shown.
    """
    if not (variant or start or end):
        return sort_rows(_kept(league, season, mode), sort, descending)
    if season is not None:
        start, end = season.starts_on, season.ends_on
    seats = Seat.objects.filter(_games(league, start, end, mode, variant))
    whole_league = not (start or end or mode or variant)
    # 1. The figures the services keep on each seat, summed per player. Grouped by the player's id alone, not
    # their name too: SQLite then walks the seats in player order instead of sorting them.
    totals = {
        r["player_id"]: r
        for r in seats.values("player_id").annotate(
            games_=Count("id"),
            wins_=Count("id", filter=Q(game__winner=F("side"))),
            **{f"{figure}_": Sum(figure) for figure in Seat.FIGURES},
        )
    }
    # 2. The players' names and ratings: the latest, as kept on the player; for a season with an end, the one at its end.
    rating_then = Subquery(_rating_at(end)) if end else F("rating")
    named = (
        Player.objects.filter(pk__in=totals)
        .annotate(rating_then=rating_then)
        .values_list("pk", "name", "streak", "rating_then", "archived")
    )
    rows: dict[int, Row] = {}
    for player_id, name, streak, rating, archived in named:
        # A season's streak counts only its games: 3., below.
        rows[player_id] = _row(player_id, name, streak if whole_league else 0, rating, totals[player_id], archived=archived)
    if not whole_league:  # 3.
        _season_streaks(rows, seats)
    return sort_rows(list(rows.values()), sort, descending)


def _row(player_id: int, name: str, streak: int, rating: float | None, sums: Mapping[str, Any], *, archived: bool) -> Row:
    """A line of the standings from the figures summed (``games_``, ``wins_`` and each of ``Seat.FIGURES`` with a ``_``)."""
    return Row(
        player_id=player_id,
        name=name,
        games=sums["games_"],
        wins=sums["wins_"],
        points=sums["points_"],
        hands=sums["hands_"],
        pitched=sums["pitched_"],
        made=sums["pitched_"] - sums["sets_"],
        set=sums["sets_"],
        won={key: sums[f"{figure}_"] for key, figure in Seat.POINT_FIGURES.items()},
        paper_games=sums["paper_games_"],
        paper_points=sums["paper_points_"],
        streak=streak,
        rating=rating,
        archived=archived,
    )


def _kept(league: League, season: Season | None, mode: str) -> list[Row]:
    """The standings of a season (None: all time), of every kind of game or of one (``mode``), from the totals kept
    per player, season and kind, in one query: a row per player, season and kind, added up here.

    All time, every kind: the streak and rating kept on the player. All time, one kind: the streak in that kind
    after the player's last game of it. A season: the rating after the player's last game of the season, and the
    streak after it, of every kind or of that kind, which counts no game before the season's first (the season's
    games of that kind bound it)."""
    rows = SeasonTotal.objects.filter(player__league=league, games__gt=0)
    if season is not None:
        rows = rows.filter(season=season)
    last = PlayerRating.objects.filter(game=OuterRef("last_game"), player=OuterRef("player"))
    found = rows.values_list(
        "player_id",
        "player__name",
        "player__streak",
        "player__rating",
        "player__archived",
        "partnership",
        "last_game__played_on",
        "last_game_id",
        Subquery(last.annotate(value=F("mu_after") - 3 * F("sigma_after")).values("value")),
        Subquery(last.values("streak_after")),
        Subquery(last.values("kind_streak_after")),
        *SeasonTotal.COUNTS,
    )
    kind = None if not mode else mode == "partnership"
    players: dict[int, _Sums] = {}
    for player_id, name, streak, rating, archived, partnership, day, game_id, rating_then, streak_then, kind_streak_then, *counts in found:
        sums = players.get(player_id) or players.setdefault(player_id, _Sums(name, streak, rating, archived, [0] * len(counts)))
        order = (day or datetime.date.min, game_id or 0)
        if sums.latest is None or order > sums.latest:  # The last game of every kind: the rating, and its streak.
            sums.latest, sums.rating_then, sums.streak_then = order, rating_then, streak_then
        if kind is not None and partnership != kind:
            continue
        sums.counts[:] = [a + b for a, b in zip(sums.counts, counts, strict=True)]
        if sums.latest_of_kind is None or order > sums.latest_of_kind:
            sums.latest_of_kind, sums.kind_streak_then = order, kind_streak_then
    standings = []
    for player_id, sums in players.items():
        games = sums.counts[0]
        if not games:  # Only games of the other kind.
            continue
        if season is None:
            streak, rating = (sums.streak if kind is None else sums.kind_streak_then or 0), sums.rating
        else:
            streak = (sums.streak_then if kind is None else sums.kind_streak_then) or 0
            streak, rating = max(-games, min(streak, games)), sums.rating_then
        standings.append(
            _row(
                player_id,
                sums.name,
                streak,
                rating,
                {f"{c}_": n for c, n in zip(SeasonTotal.COUNTS, sums.counts, strict=True)},
                archived=sums.archived,
            )
        )
    return standings


@dataclasses.dataclass
class _Sums:
    """A player's kept rows added up (``_kept``), with what their last games say."""

    name: str
    streak: int
    rating: float | None
    archived: bool
    counts: list[int]
    latest: tuple[datetime.date, int] | None = None
    rating_then: float | None = None
    streak_then: int | None = None
    latest_of_kind: tuple[datetime.date, int] | None = None
    kind_streak_then: int | None = None


def _season_streaks(rows: dict[int, Row], seats: QuerySet[Seat]) -> None:
    """The current streak in the season's games: each player's results, newest first, until the first change."""
    counting: set[int] = set(rows)
    for player_id, side_id, winner_id in seats.order_by("player_id", "-game__played_on", "-game_id").values_list(
        "player_id", "side_id", "game__winner_id"
    ):
        if player_id not in counting:
            continue
        row = rows[player_id]
        step = 1 if side_id == winner_id else -1
        if row.streak and (row.streak > 0) != (step > 0):
            counting.discard(player_id)
        else:
            row.streak += step


class _Value(TypedDict):
    value: float


def _rating_at(end: datetime.date) -> QuerySet[WithAnnotations[PlayerRating, _Value], _Value]:
    """A player's (``OuterRef("pk")``) rating after their last game up to the season's end (all kinds of game)."""
    latest = PlayerRating.objects.filter(player=OuterRef("pk"), game__played_on__lte=end)
    return latest.order_by("-game__played_on", "-game_id").annotate(value=F("mu_after") - 3 * F("sigma_after")).values("value")[:1]


def sort_rows(rows: list[Row], sort: str, descending: bool) -> list[Row]:
    """Sorted by one column, ties by name; rows without a value last."""
    column = next((c for c in COLUMNS if c.key == sort), None)
    if column is None:
        raise ValueError(f"unknown column {sort!r}")
    rows = sorted(rows, key=lambda r: r.name.casefold())
    present = [r for r in rows if column.value(r) is not None]
    missing = [r for r in rows if column.value(r) is None]
    return sorted(present, key=column.value, reverse=descending) + missing


def standings_table(
    league: League, *, season: Season | None = None, mode: str = "", variant: str = "", sort: str = "points", descending: bool = True
) -> dict:
    """The standings as the page shows them (``standings``' arguments): the rows; the headers of the columns the games
    counted call for (``standings_columns``), each with the order a click on it asks for (the sorted column turned
    round; a new column high to low, names A to Z); the kinds of point among them (their keys); whether points per
    hand is one; whether a game recorded from paper counts; and the columns' keys."""
    start, end = (season.starts_on, season.ends_on) if season else (None, None)
    columns = standings_columns(league, start=start, end=end, mode=mode, variant=variant)
    keys = {column.key for column in columns}
    headers = []
    for column in columns:
        first = "asc" if column.key == "name" else "desc"
        order = ("asc" if descending else "desc") if column.key == sort else first
        headers.append({"column": column, "order": order, "sorted": column.key == sort})
    rows = standings(league, season=season, mode=mode, variant=variant, sort=sort, descending=descending)
    return {
        "rows": rows,
        "paper": any(row.paper_games for row in rows),  # Said under the table: they count in no figure per hand.
        "headers": headers,
        "kinds": [key for key in rules.CATALOGUE if key in keys],
        "per_hand": "points_per_hand" in keys,
        "columns": [column.key for column in columns],
    }
