"""A player's page: figures, head to head, best partner, rating over time."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from ...common.requests import AuthenticatedHttpRequest
from ...leagues.access import league_for
from ...leagues.forms.leagues import SeasonForm
from ...leagues.models import Player, Role
from ...people.models import Claim
from .. import selectors


@login_required
@require_safe
def player_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """One player in a season (the current one unless asked): games with results and rating changes, rating over time,
    head-to-head records, best partner; a guest's games can be claimed here."""
    league, membership = league_for(request.user, slug)
    player = get_object_or_404(Player.objects.select_related("user"), league=league, pk=pk)
    form = SeasonForm(request.GET or None, league=league)
    context = {
        "league": league,
        "membership": membership,
        "is_owner": membership.allows(Role.OWNER),
        "form": form,
        # A guest's games may be claimed by a member who is no player of the league yet.
        "claimed": player.is_guest and Claim.objects.filter(player=player, user=request.user).exists(),
        "can_claim": player.is_guest and not Player.objects.filter(league=league, user=request.user).exists(),
        **selectors.player_context(player, season=form.chosen),
    }
    return render(request, "scores/standings/player_detail.html", context, status=400 if form.errors else 200)
