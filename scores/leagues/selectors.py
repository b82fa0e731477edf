"""A league's pages: its games a page at a time, its players' ratings over time, and whether an invite link lets someone in."""

from __future__ import annotations

from typing import Literal

from django.core.paginator import Page, Paginator

from ..engine import charts
from ..standings.models import PlayerRating, Season
from ..table.models import Game, GameQuerySet
from .models import Invite, League, Membership, Removal

GAMES_PER_PAGE = 25


CHART_GAMES = 200  # The chart's last rated games: a league of thousands would draw more points than a phone shows.


def games_page(games: GameQuerySet, number: str | None) -> Page:
    """Page ``number`` of these games, newest first, with their winners and seats (``Paginator.get_page``: the
    first page for a number that is none, the last for one past the end)."""
    return Paginator(games.with_seats(), GAMES_PER_PAGE).get_page(number)


def ratings_chart(league: League, *, season: Season | None = None) -> charts.Chart:
    """The ratings of the league's players after each of its last ``CHART_GAMES`` rated games, of a season (one of
    ``selectors.seasons``') or of all time."""
    games = Game.objects.filter(league=league).finished()
    if season is not None:
        games = games.played_between(season.starts_on, season.ends_on)
    recent = games.order_by("-played_on", "-pk").values("pk")[:CHART_GAMES]
    ratings = (
        PlayerRating.objects.filter(game__in=recent).in_order_played().values_list("game_id", "player__name", "mu_after", "sigma_after")
    )
    points = [(game, name, mu - 3 * sigma) for game, name, mu, sigma in ratings]
    return charts.ratings_chart(points)


def invite_refusal(invite: Invite, user) -> Literal["gone", "removed"] | None:
    """Why this invite link does not let ``user`` join, or None if it does (a member already: None): "gone", revoked
    or expired; "removed", an owner removed ``user`` after the link was made (``services.InviteRefused`` says them)."""
    if invite.revoked or invite.is_expired:
        return "gone"
    if Membership.objects.filter(league_id=invite.league_id, user=user).exists():
        return None
    if Removal.objects.filter(league_id=invite.league_id, user=user, removed_at__gte=invite.created_at).exists():
        return "removed"
    return None
