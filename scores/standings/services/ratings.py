"""The league's OpenSkill ratings and streaks, kept on its players and games for the standings."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from openskill.models import PlackettLuce, PlackettLuceRating

from ...engine import rules
from ...leagues.models import League, Player
from ...table.models import Game, Seat
from ..models import PlayerRating, ordinal

RATING_MODEL = PlackettLuce()


RATING_FIELDS = ("game_id", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after", "streak_after", "kind_streak_after")


@transaction.atomic
def update_ratings(*, league: League, from_game: Game | None = None) -> None:
    """Rate the league's finished games again, in the order played, from ``from_game`` (itself included) onward
    (``rate_again``), and store the new ratings."""
    rows = rate_again(league=league, from_game=from_game)
    PlayerRating.objects.bulk_create(PlayerRating(**dict(zip(RATING_FIELDS, row, strict=True))) for row in rows)


def rate_again(*, league: League, from_game: Game | None = None) -> list[tuple]:
    """Rate the league's finished games again, in the order played, from ``from_game`` (itself included) onward;
    the new ``PlayerRating`` rows (values in ``RATING_FIELDS`` order) for the caller to store, in its transaction.

    OpenSkill's Plackett-Luce model, one team per side: the winner ranks first,
    the other sides by their final totals (equal totals share a rank). Earlier
    games keep their stored ratings; ``from_game=None`` rates every game.

    The same walk keeps each player's streak (on every rating row, and the
    current one on the player), their streak in the games of each kind, solo or
    partnership (on every rating row), and latest rating on the player, for the
    standings; a player changes only if their figures do. The ratings it replaces are deleted and the players
    updated here: only the new rows are left to store (``update_ratings``, or the history import, which stores a
    whole file's as plain rows).
    """
    games = Game.objects.filter(league=league)
    if from_game is not None:
        games = games.filter(Q(played_on__gt=from_game.played_on) | Q(played_on=from_game.played_on, pk__gte=from_game.pk))
    PlayerRating.objects.filter(game__in=games).delete()
    stored, standing = _standing_before(league)
    finished = list(games.finished().order_by("played_on", "pk").values_list("pk", "winner_id", "partnership"))
    sides, totals = _sides([pk for pk, _winner, _partnership in finished])
    rows = []
    for game_id, winner_id, partnership in finished:
        teams = list(sides[game_id].items())
        places = rules.finishing_ranks({side_id: totals[game_id, side_id] for side_id, _players in teams}, winner_id)
        ranks: list[float] = [places[side_id] for side_id, _players in teams]
        before = [[standing.current[p] for p in players] for _side, players in teams]
        after = RATING_MODEL.rate(before, ranks=ranks)  # New ratings: rate() works on a copy of what it is given.
        for (side_id, players), old_team, new_team in zip(teams, before, after, strict=True):
            for player_id, old, new in zip(players, old_team, new_team, strict=True):
                streak, kind = standing.played(player_id, partnership, won=side_id == winner_id, rating=new)
                rows.append((game_id, player_id, old.mu, old.sigma, new.mu, new.sigma, streak, kind))
    _save_players(stored, standing)
    return rows


# A player as ``_standing_before`` reads them: pk, rating, streak, and their latest rating row of all, of solo games and
# of partnership games (None where there is none).
_Stored = tuple[int, float | None, int, int | None, int | None, int | None]


@dataclass
class _Standing:
    """Where each player stands as the games are rated again, in the order played."""

    current: dict[int, PlackettLuceRating]
    streaks: dict[int, int]
    kinds: dict[tuple[int, bool], int] = field(default_factory=dict)  # (player, partnership): the streak in that kind.
    rated: set[int] = field(default_factory=set)

    def played(self, player_id: int, partnership: bool, *, won: bool, rating: PlackettLuceRating) -> tuple[int, int]:
        """One more game played, won or not, and the rating after it; the streak and the streak in the kind after it."""
        self.streaks[player_id] = _streak(self.streaks[player_id], won)
        kind = self.kinds[player_id, partnership] = _streak(self.kinds.get((player_id, partnership), 0), won)
        self.current[player_id] = rating
        self.rated.add(player_id)
        return self.streaks[player_id], kind


def _standing_before(league: League) -> tuple[list[_Stored], _Standing]:
    """The league's players as stored, and where each stands before the games rated again: their latest rating row
    left, if any, and their latest of each kind of game (solo, partnership), where the streak in that kind picks up
    from."""
    rows_left = PlayerRating.objects.filter(player=OuterRef("pk")).order_by("-game__played_on", "-game_id").values("pk")
    stored = list(
        Player.objects.filter(league=league)
        .annotate(
            latest=Subquery(rows_left[:1]),
            latest_solo=Subquery(rows_left.filter(game__partnership=False)[:1]),
            latest_partnership=Subquery(rows_left.filter(game__partnership=True)[:1]),
        )
        .values_list("pk", "rating", "streak", "latest", "latest_solo", "latest_partnership")
    )
    current = {pk: RATING_MODEL.rating() for pk, *_figures in stored}
    standing = _Standing(current=current, streaks=dict.fromkeys(current, 0))
    latest_rows = {row_id for _pk, _rating, _streak, row_id, *_kinds in stored if row_id is not None}
    kind_rows = {row_id for *_figures, solo, pair in stored for row_id in (solo, pair) if row_id is not None}
    for row_id, player_id, mu, sigma, streak, partnership, kind_streak in PlayerRating.objects.filter(
        pk__in=latest_rows | kind_rows
    ).values_list("pk", "player_id", "mu_after", "sigma_after", "streak_after", "game__partnership", "kind_streak_after"):
        if row_id in latest_rows:
            standing.current[player_id] = RATING_MODEL.rating(mu=mu, sigma=sigma)
            standing.streaks[player_id] = streak
            standing.rated.add(player_id)
        if row_id in kind_rows:
            standing.kinds[player_id, partnership] = kind_streak
    return stored, standing


def _sides(ids: list[int]) -> tuple[dict[int, dict[int, list[int]]], dict[tuple[int, int], int]]:
    """The finished games' sides (game -> side -> players, in seat order) and each side's final total (by game and
    side): a seat of a finished game holds its side's score changes summed."""
    sides: dict[int, dict[int, list[int]]] = {pk: {} for pk in ids}
    totals: dict[tuple[int, int], int] = {}
    for game_id, side_id, player_id, points in (
        Seat.objects.filter(game__in=ids).order_by("side__position", "position").values_list("game_id", "side_id", "player_id", "points")
    ):
        sides[game_id].setdefault(side_id, []).append(player_id)
        totals[game_id, side_id] = points
    return sides, totals


def _save_players(stored: list[_Stored], standing: _Standing) -> None:
    """Keep each player's latest rating and streak, updating only those whose figures changed."""
    changed = []
    for pk, *was, _latest, _solo, _partnership in stored:
        rating = ordinal(standing.current[pk].mu, standing.current[pk].sigma) if pk in standing.rated else None
        if [rating, standing.streaks[pk]] != was:
            changed.append(Player(pk=pk, rating=rating, streak=standing.streaks[pk]))
    if changed:
        Player.objects.bulk_update(changed, ["rating", "streak"])


def _streak(streak: int, won: bool) -> int:
    """The streak after one more game: +3 won the last three, -2 lost the last two."""
    return max(streak, 0) + 1 if won else min(streak, 0) - 1
