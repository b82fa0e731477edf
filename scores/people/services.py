"""Writes to a league's people: guests, a member's claim of a guest's games, renaming, archiving and merging players.

Claims and merges lock the league's row (``lock_league``) and check that whoever acts is still an owner.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from ..common.refusals import Refused
from ..engine.names import clean as clean_name
from ..engine.names import key as name_key
from ..leagues.models import League, Membership, Player
from ..leagues.services import lock_league, rename_player
from ..nights.models import Bye
from ..standings.services.ratings import update_ratings
from ..standings.services.totals import merge_totals
from ..table.models import Game, Seat, Side
from .models import Claim
from .selectors import merge_refusal


def _taken(league_id: int, name: str, but: int | None = None) -> Player | None:
    """The league's player of that name (compared as ``scores.engine.names.key`` does), other than ``but``."""
    # The stubs refuse None for a key, where Django reads pk=None as "pk IS NULL": excluding no player.
    return next((p for p in Player.objects.filter(league_id=league_id).exclude(pk=but) if name_key(p.name) == name_key(name)), None)  # type: ignore[misc]


@transaction.atomic
def add_guest(*, league: League, name: str) -> Player:
    """A new player with a name and no account; refused if the league has a player of that name."""
    name = clean_name(name)
    if (player := _taken(league.pk, name)) is not None:
        raise Refused(_("The league already has a player called %(name)s.") % {"name": player.name})
    return Player.objects.create(league=league, name=name)


@transaction.atomic
def rename(*, player: Player, name: str) -> None:
    """A new name for a player (in their solo games too: ``rename_player``); refused if another player has it."""
    if (other := _taken(player.league_id, name, but=player.pk)) is not None:
        raise Refused(_("The league already has a player called %(name)s.") % {"name": other.name})
    try:
        with transaction.atomic():
            rename_player(player=player, name=name)
    except IntegrityError:  # Taken a moment ago.
        raise Refused(_("The league already has a player called %(name)s.") % {"name": clean_name(name)}) from None


@transaction.atomic
def set_archived(*, player: Player, archived: bool) -> None:
    """Archive a player (left out of the pickers; their games and figures stay) or bring them back."""
    Player.objects.filter(pk=player.pk).update(archived=archived)
    player.archived = archived


@transaction.atomic
def claim_player(*, player: Player, user) -> Claim:
    """A member asks for a guest's games to be theirs; an owner confirms or declines (``decide_claim``)."""
    if player.user_id is not None:
        raise Refused(_("%(name)s's games are already someone's.") % {"name": player.name})
    mine = Player.objects.filter(league_id=player.league_id, user=user).first()
    if mine is not None:
        raise Refused(
            _("You are %(mine)s in this league: ask an owner to merge %(name)s into %(mine)s instead.")
            % {"mine": mine.name, "name": player.name}
        )
    claim, _created = Claim.objects.get_or_create(player=player, user=user)
    return claim


@transaction.atomic
def decide_claim(*, claim: Claim, confirm: bool, by) -> None:
    """Confirm a claim (the guest becomes the member's player, and the other claims on either go) or decline it."""
    league = claim.player.league
    lock_league(league, by)
    if not confirm:
        claim.delete()
        return
    player = Player.objects.get(pk=claim.player_id)
    if player.user_id is not None:
        raise Refused(_("%(name)s's games are already someone's.") % {"name": player.name})
    if not Membership.objects.filter(league=league, user_id=claim.user_id).exists():
        raise Refused(_("%(user)s is no longer a member of the league.") % {"user": claim.user})
    mine = Player.objects.filter(league=league, user_id=claim.user_id).first()
    if mine is not None:
        raise Refused(
            _("%(user)s is %(mine)s in this league already: merge the two players instead.") % {"user": claim.user, "mine": mine.name}
        )
    Player.objects.filter(pk=player.pk).update(user_id=claim.user_id)
    Claim.objects.filter(player__league=league).filter(player=player).delete()
    Claim.objects.filter(player__league=league, user_id=claim.user_id).delete()


@transaction.atomic
def merge_players(*, keep: Player, drop: Player, by) -> None:
    """``drop`` is ``keep``: their games, card nights, claims and account become ``keep``'s, the ratings are worked out
    again from ``drop``'s first finished game on (head to head follows the games), and ``drop`` is gone.

    Refused, with nothing changed, when the games say they are two people (``merge_refusal``), or ``by`` is no
    longer an owner.
    """
    lock_league(keep.league, by)
    keep, drop = Player.objects.get(pk=keep.pk), Player.objects.get(pk=drop.pk)  # As they are now, under the lock.
    refusal = merge_refusal(keep, drop)
    if refusal is not None:
        raise Refused(refusal)
    first = Game.objects.filter(seats__player=drop).finished().order_by("played_on", "pk").first()
    # A solo game's side bears its player's name, and the engine finds the player's side by it.
    games = Game.objects.filter(seats__player=drop)
    Side.objects.filter(game__in=games, game__partnership=False, seats__player=drop).update(name=keep.name)
    Game.objects.filter(pk__in=games.values("pk")).update(version=F("version") + 1)  # The live pages show the name.
    Seat.objects.filter(player=drop).update(player=keep)
    Bye.objects.filter(player=drop).update(player=keep)
    merge_totals(keep=keep, drop=drop)
    account = drop.user_id
    Claim.objects.filter(player=drop).delete()
    drop.delete()
    if keep.user_id is None and account is not None:
        Player.objects.filter(pk=keep.pk).update(user_id=account)
    if first is not None:
        update_ratings(league=League(pk=keep.league_id), from_game=first)
