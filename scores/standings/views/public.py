"""The league's public read-only link (/p/<token>/): its standings and games, for anyone with the link."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from ...common.requests import HtmxHttpRequest
from ...leagues import selectors as league_selectors
from ...leagues.forms.leagues import StandingsForm
from ...leagues.models import League
from ...table import selectors as table_selectors
from ...table.access import not_found_if_deleted
from ...table.models import Game
from .. import selectors


def _get_public_league(token: str) -> League:
    return get_object_or_404(League, public_token=token)


@require_safe
@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def public_league(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The standings and games of a league, read only, for whoever has the link."""
    league = _get_public_league(token)
    form = StandingsForm(request.GET or None, league=league, variants=selectors.variants_played(league))
    standings = {"league": league, "public": True, "form": form, **selectors.standings_table(league, **form.query)}
    status = 400 if form.errors else 200
    if request.htmx and not request.htmx.history_restore_request:  # Back to a page htmx no longer keeps: the whole page.
        return render(request, "scores/standings/public_league.html#standings", standings, status=status)
    context = {**standings, "page": league_selectors.games_page(league.games.all(), request.GET.get("page"))}
    return render(request, "scores/standings/public_league.html", context, status=status)


@require_safe
@not_found_if_deleted
def public_game(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """One game of a league with a public link, read only."""
    league = _get_public_league(token)
    game = get_object_or_404(Game.objects.select_related("league", "winner"), league=league, pk=pk)
    return render(request, "scores/standings/public_game.html", {"public": True, **table_selectors.scoreboard_context(game)})
