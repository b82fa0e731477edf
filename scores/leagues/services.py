"""Writes to a league: create and delete it, its members and their roles, invites, its players' names.

Role changes and removals lock the league's row, so a league always keeps an owner.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from ..common.refusals import Refused
from ..engine.names import clean as clean_name
from ..engine.names import key as name_key
from ..engine.rules import Rules
from ..table.models import Game, Side
from .models import Invite, League, Membership, Player, Removal, Role
from .selectors import invite_refusal

# Paths under /leagues/ that are pages, not leagues.
RESERVED_SLUGS = frozenset({"new"})


@transaction.atomic
def create_league(*, name: str, owner) -> League:
    """A new league named ``name`` with ``owner`` as its owner; the short name comes from the name, made unique."""
    name = clean_name(name)
    base = (slugify(name) or "league")[:50]
    taken = set(League.objects.filter(slug__startswith=base).values_list("slug", flat=True)) | RESERVED_SLUGS
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    league = League.objects.create(name=name, slug=slug)
    Membership.objects.create(league=league, user=owner, role=Role.OWNER)
    return league


@transaction.atomic
def delete_league(*, league: League) -> None:
    """Delete a league with everything in it.

    Games go first: their seats protect the players from being deleted while a game still seats them.
    """
    Game.objects.filter(league=league).delete()
    league.delete()


def rename_league(*, league: League, name: str) -> None:
    """Give the league a new name (its short name, in its addresses, stays)."""
    league.name = name
    league.save(update_fields=["name"])


def set_house_rules(*, league: League, rules: Rules) -> None:
    """The rules the league's new games start with; a game already started keeps its own."""
    fields = League.fields_of(rules)
    for name, value in fields.items():
        setattr(league, name, value)
    league.save(update_fields=list(fields))


def set_public_link(*, league: League, on: bool, new: bool = False) -> None:
    """Turn the league's public read-only link off, or on: with a new token when ``new`` or when it was off (the old
    link then stops working), else the link stays as it is."""
    if on and not new and league.public_token is not None:
        return
    league.public_token = League.new_token() if on else None
    League.objects.filter(pk=league.pk).update(public_token=league.public_token)


def create_invite(*, league: League, by, role: str, days: int) -> Invite:
    """An invite link to the league as ``role``, made by ``by``, that works for ``days`` days."""
    return Invite.objects.create(league=league, created_by=by, role=role, expires_at=timezone.now() + datetime.timedelta(days=days))


def revoke_invite(*, invite: Invite) -> None:
    """Opening the invite link no longer joins the league."""
    invite.revoked = True
    invite.save(update_fields=["revoked"])


def lock_league(league: League, by) -> Membership:
    """Lock the league's row until the transaction ends, so changes to its members queue (on SQLite the
    IMMEDIATE transaction already does), and return ``by``'s membership as it is now: an owner demoted or
    removed a moment ago may no longer act, though the page let them."""
    list(League.objects.select_for_update().filter(pk=league.pk))  # Only the lock is wanted, not the row.
    actor = Membership.objects.filter(league=league, user=by, role=Role.OWNER).first()
    if actor is None:
        raise Refused(_("You are no longer an owner of this league: nothing was changed."))
    return actor


def _member(league: League, pk: int) -> Membership:
    member = Membership.objects.select_related("user").filter(league=league, pk=pk).first()
    if member is None:
        raise Refused(_("That person is no longer a member of the league."))
    return member


def _keeps_an_owner(league: League, member: Membership) -> bool:
    """Whether the league has an owner besides ``member`` (read under the league's lock)."""
    return Membership.objects.filter(league=league, role=Role.OWNER).exclude(pk=member.pk).exists()


@transaction.atomic
def change_role(*, league: League, member_pk: int, role: str, by) -> Membership:
    """Give a member another role; refused if that would leave the league without an owner."""
    lock_league(league, by)
    member = _member(league, member_pk)
    if member.role == Role.OWNER and role != Role.OWNER and not _keeps_an_owner(league, member):
        raise Refused(_("%(user)s is the only owner: make someone else owner first.") % {"user": member.user})
    member.role = role
    member.save(update_fields=["role"])
    return member


@transaction.atomic
def remove_member(*, league: League, member_pk: int, by) -> Membership:
    """Take a member out of the league (``by`` themself: leaving it); refused if that would leave it without
    an owner. Someone an owner removes cannot come back through an invite link made before (``Removal``)."""
    actor = lock_league(league, by)
    member = _member(league, member_pk)
    if member.role == Role.OWNER and not _keeps_an_owner(league, member):
        raise Refused(_("%(user)s is the only owner and cannot be removed.") % {"user": member.user})
    leaving = member.pk == actor.pk
    member.delete()
    if not leaving:
        Removal.objects.update_or_create(league=league, user=member.user, defaults={"removed_at": timezone.now()})
    return member


class InviteRefused(Refused):
    """An invite link that does not let someone join, for one of ``selectors.invite_refusal``'s reasons."""

    def __init__(self, reason: str) -> None:
        if reason == "removed":
            super().__init__(_("You were removed from this league: ask an owner to invite you again."))
        else:
            super().__init__(_("This invite link no longer works: ask an owner of the league for a new one."))


@transaction.atomic
def accept_invite(*, invite: Invite, user) -> tuple[Membership, bool]:
    """Make ``user`` a member with the invite's role; an existing member keeps the role they have.

    Refused (``invite_refusal``) if the link was revoked or has expired, or if an owner removed ``user`` after
    the link was made; a link made after the removal is the owner inviting them again, and clears it.
    Returns the membership and whether it is new.
    """
    locked = Invite.objects.select_for_update().filter(pk=invite.pk).first()  # Revoked a moment ago? Wait and see.
    reason = "gone" if locked is None else invite_refusal(locked, user)
    if reason is not None:
        raise InviteRefused(reason)
    Removal.objects.filter(league_id=invite.league_id, user=user).delete()
    return Membership.objects.get_or_create(league_id=invite.league_id, user=user, defaults={"role": invite.role})


@transaction.atomic
def rename_player(*, player: Player, name: str) -> None:
    """Give a player a new name, in the league and in the solo games they played.

    A solo game's side bears its player's name, and the rules engine finds each
    player's side by it: the two are renamed together, or the next hand of such
    a game could not be scored. Those games' version moves on, so the live
    score shows the new name. The name is stored in its normal form (``scores.engine.names``).
    """
    name = clean_name(name)
    sides = Side.objects.filter(game__partnership=False, seats__player=player)
    Game.objects.filter(sides__in=sides).update(version=F("version") + 1)
    sides.update(name=name)
    Player.objects.filter(pk=player.pk).update(name=name)
    player.name = name


def players_named(league: League, names: Sequence[str]) -> dict[str, Player]:
    """The league's players by these names, compared as ``scores.engine.names.key`` does; unknown names become new players."""
    existing = {name_key(p.name): p for p in Player.objects.filter(league=league)}
    found = {}
    for name in names:
        player = existing.get(name_key(name))
        if player is None:
            player = existing[name_key(name)] = Player.objects.create(league=league, name=name)
        found[name] = player
    return found
