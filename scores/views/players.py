"""A player's page: figures, head to head, best partner, rating over time."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from .. import selectors
from ..models import Player
from .access import league_for


@login_required
@require_safe
def player_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One player: games with results and rating changes, rating over time, head-to-head records, best partner."""
    league, membership = league_for(request.user, slug)
    player = get_object_or_404(Player, league=league, pk=pk)
    return render(request, "scores/player_detail.html", {"league": league, "membership": membership, **selectors.player_context(player)})
