"""Who may see a game: a member of its league with at least a role, else 404 (one query); and who records a card
night's table."""

from __future__ import annotations

from django.http import Http404
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
