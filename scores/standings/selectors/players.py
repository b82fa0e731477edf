"""A player's page: their games with results and rating changes, head to head, best partner, rating over time; and the
ratings of a league's players over time (its page's chart)."""

from __future__ import annotations

from ...engine import charts, rules
from ...leagues.models import League, Player
from ...table.models import Game, Seat
from ..models import PlayerRating, Season


def player_context(player: Player, *, season: Season | None = None) -> dict:
    """The player page's figures in a season (one of ``selectors.seasons``'; None: all time), in three queries however
    many games the player has played."""
    games = Game.objects.filter(league=player.league_id)
    if season is not None:
        games = games.played_between(season.starts_on, season.ends_on)
    seats = list(
        Seat.objects.filter(player=player, game__in=games)
        .select_related("game__league", "game__winner", "side")
        .order_by("-game__played_on", "-game_id")
    )
    game_ids = [seat.game_id for seat in seats]
    others = list(Seat.objects.filter(game__in=game_ids).exclude(player=player).select_related("player"))
    # Each side's final total in the finished games: a seat of a finished game holds its side's score changes summed.
    finished = {seat.game_id for seat in seats if seat.game.is_finished}
    totals: dict[int, dict[int, int]] = {}
    for each in (*seats, *others):
        if each.game_id in finished:
            totals.setdefault(each.game_id, {})[each.side_id] = each.points
    ratings = list(PlayerRating.objects.filter(player=player, game__in=games).in_order_played())
    change = {r.game_id: r.change for r in ratings}
    head_to_head: dict[int, dict] = {}
    partners: dict[int, dict] = {}
    played: list[dict] = []
    for seat in seats:
        game = seat.game
        places: dict[int, int] = {}
        if game.is_finished:
            assert game.winner_id is not None  # A finished game has a winner (the game_finished_has_winner constraint).
            places = rules.finishing_ranks(totals[game.pk], game.winner_id)
        played.append(
            {
                "game": game,
                "side": seat.side,
                "won": game.winner_id == seat.side_id,
                "place": places.get(seat.side_id),
                "total": totals.get(game.pk, {}).get(seat.side_id),
                "rating_change": change.get(game.pk),
            }
        )
        if not game.is_finished:
            continue
        for other in others:
            if other.game_id != game.pk:
                continue
            if other.side_id == seat.side_id:
                record = partners.setdefault(other.player_id, {"player": other.player, "games": 0, "wins": 0})
                record["games"] += 1
                record["wins"] += game.winner_id == seat.side_id
            else:
                record = head_to_head.setdefault(other.player_id, {"player": other.player, "won": 0, "lost": 0, "tied": 0})
                mine, theirs = places[seat.side_id], places[other.side_id]
                record["won" if mine < theirs else "lost" if mine > theirs else "tied"] += 1
    best_partner = max(partners.values(), key=lambda p: (p["wins"] / p["games"], p["games"]), default=None)
    chart = charts.line_chart([charts.Series(player.name, [(i, round(r.after, 1)) for i, r in enumerate(ratings, start=1)])])
    return {
        "player": player,
        "games": played,
        "head_to_head": sorted(head_to_head.values(), key=lambda r: r["player"].name.casefold()),
        "best_partner": best_partner,
        "rating": ratings[-1].after if ratings else None,
        "chart": chart,
    }


CHART_GAMES = 200  # The chart's last rated games: a league of thousands would draw more points than a phone shows.


def ratings_chart(league: League, *, season: Season | None = None) -> charts.Chart:
    """The ratings of the league's players after each of its last ``CHART_GAMES`` rated games, of a season (one of
    ``seasons``') or of all time: the league page's chart."""
    games = Game.objects.filter(league=league).finished()
    if season is not None:
        games = games.played_between(season.starts_on, season.ends_on)
    recent = games.order_by("-played_on", "-pk").values("pk")[:CHART_GAMES]
    ratings = (
        PlayerRating.objects.filter(game__in=recent).in_order_played().values_list("game_id", "player__name", "mu_after", "sigma_after")
    )
    points = [(game, name, mu - 3 * sigma) for game, name, mu, sigma in ratings]
    return charts.ratings_chart(points)
