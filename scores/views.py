"""Pages of Pitch League: small function views; access is checked here, server side."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from .models import Game, HandScore, League, Membership, Role, Side


def _get_league_for(user, slug: str, role: str = Role.VIEWER) -> tuple[League, Membership]:
    """The league with this slug if the user is a member with at least ``role``; otherwise 404."""
    if not user.is_authenticated:
        raise Http404
    membership = Membership.objects.select_related("league").filter(league__slug=slug, user=user).first()
    if membership is None or not membership.allows(role):
        raise Http404
    return membership.league, membership


def _get_game_for(user, slug: str, pk: int, role: str = Role.VIEWER) -> tuple[Game, Membership]:
    league, membership = _get_league_for(user, slug, role)
    return get_object_or_404(Game.objects.select_related("league", "winner"), league=league, pk=pk), membership


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The leagues the user belongs to."""
    leagues = League.objects.for_user(request.user) if request.user.is_authenticated else League.objects.none()
    return render(request, "scores/home.html", {"leagues": leagues})


@login_required
@require_safe
def game_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The scoreboard and the hand history of one game."""
    game, membership = _get_game_for(request.user, slug, pk)
    return render(request, "scores/game_detail.html", {"membership": membership, **scoreboard_context(game)})


def scoreboard_context(game: Game) -> dict:
    """Sides with their totals and the hands with each side's change, in a fixed number of queries."""
    sides = list(Side.objects.filter(game=game).prefetch_related("seats__player").order_by("position"))
    hands = list(
        game.hands.select_related("dealer__player", "pitcher__player", "high", "low", "jack", "game_point")
        .prefetch_related(Prefetch("scores", queryset=HandScore.objects.order_by("side__position")))
        .order_by("number")
    )
    totals = {side.pk: 0 for side in sides}
    if hands:
        totals.update({score.side_id: score.total for score in hands[-1].scores.all()})
    best = max(totals.values(), default=0)
    rows = [{"side": side, "total": totals[side.pk], "leading": totals[side.pk] == best and bool(hands)} for side in sides]
    return {"game": game, "league": game.league, "sides": sides, "rows": rows, "hands": hands}
