"""The league's OpenSkill ratings and streaks, kept on its players and games for the standings."""

from __future__ import annotations

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from openskill.models import PlackettLuce

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
    # Where each player stands before the games rated again: their latest rating row left, if any, and their latest
    # of each kind of game (solo, partnership), where the streak in that kind picks up from.
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
    streaks = dict.fromkeys(current, 0)
    kinds: dict[tuple[int, bool], int] = {}  # (player, partnership): the streak in that kind of game.
    rated: set[int] = set()
    latest_rows = {row_id for _pk, _rating, _streak, row_id, *_kinds in stored if row_id is not None}
    kind_rows = {row_id for *_figures, solo, pair in stored for row_id in (solo, pair) if row_id is not None}
    for row_id, player_id, mu, sigma, streak, partnership, kind_streak in PlayerRating.objects.filter(
        pk__in=latest_rows | kind_rows
    ).values_list("pk", "player_id", "mu_after", "sigma_after", "streak_after", "game__partnership", "kind_streak_after"):
        if row_id in latest_rows:
            current[player_id] = RATING_MODEL.rating(mu=mu, sigma=sigma)
            streaks[player_id] = streak
            rated.add(player_id)
        if row_id in kind_rows:
            kinds[player_id, partnership] = kind_streak
    finished = list(games.finished().order_by("played_on", "pk").values_list("pk", "winner_id", "partnership"))
    ids = [pk for pk, _winner, _partnership in finished]
    sides: dict[int, dict[int, list[int]]] = {pk: {} for pk in ids}  # game -> side -> players
    # A seat of a finished game holds its side's score changes summed: the side's final total.
    totals: dict[tuple[int, int], int] = {}
    for game_id, side_id, player_id, points in (
        Seat.objects.filter(game__in=ids).order_by("side__position", "position").values_list("game_id", "side_id", "player_id", "points")
    ):
        sides[game_id].setdefault(side_id, []).append(player_id)
        totals[game_id, side_id] = points
    rows = []
    for game_id, winner_id, partnership in finished:
        teams = list(sides[game_id].items())
        places = rules.finishing_ranks({side_id: totals[game_id, side_id] for side_id, _players in teams}, winner_id)
        ranks: list[float] = [places[side_id] for side_id, _players in teams]
        before = [[current[p] for p in players] for _side, players in teams]
        after = RATING_MODEL.rate(before, ranks=ranks)  # New ratings: rate() works on a copy of what it is given.
        for (side_id, players), old_team, new_team in zip(teams, before, after, strict=True):
            for player_id, old, new in zip(players, old_team, new_team, strict=True):
                streaks[player_id] = _streak(streaks[player_id], side_id == winner_id)
                kind = kinds[player_id, partnership] = _streak(kinds.get((player_id, partnership), 0), side_id == winner_id)
                rows.append((game_id, player_id, old.mu, old.sigma, new.mu, new.sigma, streaks[player_id], kind))
                current[player_id] = new
                rated.add(player_id)
    changed = []
    for pk, *was, _latest, _solo, _partnership in stored:
        rating = ordinal(current[pk].mu, current[pk].sigma) if pk in rated else None
        if [rating, streaks[pk]] != was:
            changed.append(Player(pk=pk, rating=rating, streak=streaks[pk]))
    if changed:
        Player.objects.bulk_update(changed, ["rating", "streak"])
    return rows


def _streak(streak: int, won: bool) -> int:
    """The streak after one more game: +3 won the last three, -2 lost the last two."""
    return max(streak, 0) + 1 if won else min(streak, 0) - 1
