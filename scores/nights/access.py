"""Who may see a card night: a member of its league with at least a role, else 404 (two queries)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from ..leagues.access import league_for
from ..leagues.models import Membership, Role
from .models import Night


def night_for(user, slug: str, pk: int, role: str = Role.VIEWER) -> tuple[Night, Membership]:
    """The card night if it is in this league and the user is a member with at least ``role``; otherwise 404. Two queries."""
    league, membership = league_for(user, slug, role)
    night = get_object_or_404(Night, league=league, pk=pk)
    night.league = league
    return night, membership
