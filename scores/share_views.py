"""A finished game's rematch and the QR code of a game's watch link: the phone at the table (issue 13)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from . import qr, services
from .models import Role
from .views import _get_game_for


@login_required
@require_safe
def watch_qr(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The game's watch link as a QR code (SVG), for another phone's camera."""
    game, _membership = _get_game_for(request.user, slug, pk)
    url = request.build_absolute_uri(reverse("scores:watch", args=[game.share_token]))
    response = HttpResponse(qr.svg(url), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@login_required
@require_POST
def rematch(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """After a win, the same players in the same seats and the same rules; the deal moves on to the next player."""
    game, _membership = _get_game_for(request.user, slug, pk, Role.SCORER)
    if not game.is_finished:
        messages.warning(request, gettext("A rematch can start only when the game has a winner."))
        return redirect(game)
    state = services.load_game(game)
    table = state.table
    new_game = services.start_game(
        league=game.league,
        seats=list(table.seats),
        target=table.target,
        teams=[(team.name, team.players) for team in table.teams],
        first_dealer=state.next_dealer,
    )
    messages.success(request, gettext("Rematch: %(dealer)s deals first.") % {"dealer": state.next_dealer})
    return redirect(new_game)
