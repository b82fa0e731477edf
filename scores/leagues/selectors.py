"""A league's pages: its games a page at a time, its players' ratings over time, and whether an invite link lets someone in."""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.utils.translation import gettext as _

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
    return charts.ratings_chart(points, title=_("Ratings over time"), x_label=_("Rated games"))


def invite_refusal(invite: Invite, user) -> str | None:
    """Why this invite link does not let ``user`` join, or None if it does (a member already: None)."""
    if invite.revoked or invite.is_expired:
        return _("This invite link no longer works: ask an owner of the league for a new one.")
    if Membership.objects.filter(league_id=invite.league_id, user=user).exists():
        return None
    if Removal.objects.filter(league_id=invite.league_id, user=user, removed_at__gte=invite.created_at).exists():
        return _("You were removed from this league: ask an owner to invite you again.")
    return None
