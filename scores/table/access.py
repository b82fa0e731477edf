"""Who may see a game: a member of its league with at least a role, else 404 (one query); who records a card
night's table; and a game's page read while the game is deleted, a 404 too."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404

from ..leagues.models import Membership, Role
from .models import Game


def game_for(user, slug: str, pk: int, role: str = Role.VIEWER) -> tuple[Game, Membership]:
    """The game if it is in this league and the user is a member with at least ``role``; otherwise 404. One query."""
    game = get_object_or_404(Game.objects.for_member(user, role), league__slug=slug, pk=pk)
    membership = Membership.read(game, game.league, user)
    if role != Role.VIEWER and not may_score(game, membership):
        raise Http404  # A card night's table is recorded by its scorer and the owners: to the others it is a page to see.
    return game, membership


def may_score(game: Game, membership: Membership) -> bool:
    """Whether the member may record this game's hands: a scorer may record any game but a card night's table, which
    is its own scorer's (``Game.scorer``) and the owners'."""
    if not membership.allows(Role.SCORER):
        return False
    return game.round_id is None or membership.allows(Role.OWNER) or game.scorer_id == membership.user.pk


def not_found_if_deleted[**P](view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
    """A game's page answers 404 when another request deleted the game after the view found it: its seats are then
    gone when ``selectors.load_game`` reads them (Game.DoesNotExist), and the page is as a moment later, not found."""

    @functools.wraps(view)
    def page(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        try:
            return view(*args, **kwargs)
        except Game.DoesNotExist:
            raise Http404 from None

    return page
