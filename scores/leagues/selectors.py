"""A league's pages: its games a page at a time, and whether an invite link lets someone in."""

from __future__ import annotations

from typing import Literal

from django.core.paginator import Page, Paginator

from ..table.models import GameQuerySet
from .models import Invite, Membership, Removal

GAMES_PER_PAGE = 25


def games_page(games: GameQuerySet, number: str | None) -> Page:
    """Page ``number`` of these games, newest first, with their winners and seats (``Paginator.get_page``: the
    first page for a number that is none, the last for one past the end)."""
    return Paginator(games.with_seats(), GAMES_PER_PAGE).get_page(number)


def invite_refusal(invite: Invite, user) -> Literal["gone", "removed"] | None:
    """Why this invite link does not let ``user`` join, or None if it does (a member already: None): "gone", revoked
    or expired; "removed", an owner removed ``user`` after the link was made (``services.InviteRefused`` says them)."""
    if invite.revoked or invite.is_expired:
        return "gone"
    if Membership.objects.filter(league_id=invite.league_id, user=user).exists():
        return None
    if Removal.objects.filter(league_id=invite.league_id, user=user, removed_at__gte=invite.created_at).exists():
        return "removed"
    return None
