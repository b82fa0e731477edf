"""Who may see a league: a member with at least a role, else 404 (one query). A game's and a card night's pages are
checked in ``scores.table.access`` and ``scores.nights.access``, on the same terms."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from .models import League, Membership, Role


def league_for(user, slug: str, role: str = Role.VIEWER) -> tuple[League, Membership]:
    """The league with this slug if the user is a member with at least ``role``; otherwise 404. One query."""
    league = get_object_or_404(League.objects.for_member(user, role), slug=slug)
    return league, Membership.read(league, league, user)
