"""Who may see what: a league or game for a member with at least a role, else 404 (one query each)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from ..models import Game, League, Membership, Role


def league_for(user, slug: str, role: str = Role.VIEWER) -> tuple[League, Membership]:
    """The league with this slug if the user is a member with at least ``role``; otherwise 404. One query."""
    league = get_object_or_404(League.objects.for_member(user, role), slug=slug)
    return league, Membership.read(league, league, user)


def game_for(user, slug: str, pk: int, role: str = Role.VIEWER) -> tuple[Game, Membership]:
    """The game if it is in this league and the user is a member with at least ``role``; otherwise 404. One query."""
    if not 0 < pk < 2**63:  # No row has another id, and the database would refuse the number.
        raise Http404
    game = get_object_or_404(Game.objects.for_member(user, role), league__slug=slug, pk=pk)
    return game, Membership.read(game, game.league, user)
