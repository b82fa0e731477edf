"""The season totals worked out again from the seats, to compare with those the services keep (``SeasonTotal``)."""

from __future__ import annotations

from scores.leagues.models import League
from scores.standings.models import SeasonTotal
from scores.standings.services.totals import Seasons
from scores.table.models import Game, Seat


def recount(league: League) -> list[tuple]:
    """Each (player, season, kind of game) with a finished game: its counts (``SeasonTotal.COUNTS``) and the player's
    last game of that kind in the season, worked out seat by seat."""
    seasons = Seasons(league.pk)
    found: dict[tuple, list] = {}
    seats = Seat.objects.filter(game__league=league, game__status=Game.Status.FINISHED).order_by("game__played_on", "game_id")
    for seat in seats.select_related("game"):
        key = (seat.player_id, seasons.of(seat.game.played_on), seat.game.partnership)
        row = found.setdefault(key, [0] * len(SeasonTotal.COUNTS) + [None])
        row[0] += 1
        row[1] += seat.side_id == seat.game.winner_id
        for i, figure in enumerate(Seat.FIGURES, start=2):
            row[i] += getattr(seat, figure)
        row[-1] = seat.game_id
    return sorted(((*key, *row) for key, row in found.items()), key=_order)


def kept(league: League) -> list[tuple]:
    """The rows the services keep, as ``recount`` gives them (rows of no finished game left out)."""
    rows = SeasonTotal.objects.filter(player__league=league, games__gt=0)
    return sorted(rows.values_list("player_id", "season_id", "partnership", *SeasonTotal.COUNTS, "last_game_id"), key=_order)


def _order(row: tuple) -> tuple:
    return row[0], row[1] or 0, row[2]
