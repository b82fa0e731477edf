"""Writes to a league's people: guests, a member's claim of a guest's games, renaming, archiving and merging players.

Claims and merges lock the league's row (``lock_league``) and check that whoever acts is still an owner.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from ..common.refusals import Gone, Refused
from ..engine.names import clean as clean_name
from ..engine.names import key as name_key
from ..leagues.models import League, Membership, Player
from ..leagues.services import lock_league, rename_player
from ..nights.models import Bye
from ..standings.services.ratings import update_ratings
from ..standings.services.totals import merge_totals
from ..table.models import Game, Seat, Side
from .models import Claim
from .selectors import MergeRefusal, merge_refusal


def _merged_away(player: Player) -> Gone:
    """``player`` was merged into another meanwhile (a merge is what deletes a player of a league that goes on)."""
    return Gone(_("%(name)s was merged into another player meanwhile: nothing was changed.") % {"name": player.name})


def _lock_player(player: Player) -> None:
    """Lock the player's row until the transaction ends, so a merge that deletes it waits, or is waited for and found."""
    if not Player.objects.select_for_update().filter(pk=player.pk).values_list("pk"):
        raise _merged_away(player)


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
    _lock_player(player)
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
    if not Player.objects.filter(pk=player.pk).update(archived=archived):
        raise _merged_away(player)
    player.archived = archived


@transaction.atomic
def claim_player(*, player: Player, user) -> Claim:
    """A member asks for a guest's games to be theirs; an owner confirms or declines (``decide_claim``).

    The league's row is locked first, as a merge locks it: a merge of the guest either ends before (the guest is gone,
    and said so) or waits and takes the claim away with the guest."""
    list(League.objects.select_for_update().filter(pk=player.league_id).values_list("pk"))  # Only the lock is wanted.
    if not Player.objects.filter(pk=player.pk).exists():
        raise _merged_away(player)
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
    player = Player.objects.filter(pk=claim.player_id).first()
    if player is None:
        raise _merged_away(claim.player)
    if confirm and player.user_id is not None:
        raise Refused(_("%(name)s's games are already someone's.") % {"name": player.name})
    if not Claim.objects.filter(pk=claim.pk).exists():
        raise Gone(_("Another owner answered this claim meanwhile: nothing was changed."))
    if not confirm:
        claim.delete()
        return
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


class MergeRefused(Refused):
    """Two players who cannot be merged, for one of ``selectors.merge_refusal``'s reasons, in words."""

    def __init__(self, keep: Player, drop: Player, refusal: MergeRefusal) -> None:
        names = {"keep": keep.name, "drop": drop.name}
        match refusal.reason:
            case "same":
                words = _("Pick two different players.")
            case "leagues":
                words = _("The two players are in different leagues.")
            case "accounts":
                words = _("%(keep)s and %(drop)s each have an account: two people, not one.") % names
            case "game":
                words = _("%(keep)s and %(drop)s played in the same game (%(game)s): they cannot be one person.") % {
                    **names,
                    "game": refusal.game,
                }
            case "round":
                words = _("%(keep)s and %(drop)s were both at the same round of a card night: they cannot be one person.") % names
            case "in_progress":
                words = _("%(drop)s has a game in progress: merge them when it is over.") % names
        super().__init__(words)


@transaction.atomic
def merge_players(*, keep: Player, drop: Player, by) -> None:
    """``drop`` is ``keep``: their games, card nights, claims and account become ``keep``'s, the ratings are worked out
    again from ``drop``'s first finished game on (head to head follows the games), and ``drop`` is gone.

    Refused, with nothing changed, when the games say they are two people (``merge_refusal``), or ``by`` is no
    longer an owner.
    """
    lock_league(keep.league, by)
    now = Player.objects.in_bulk([keep.pk, drop.pk])  # As they are now, under the lock: another merge may have gone first.
    for player in (drop, keep):
        if player.pk not in now:
            raise _merged_away(player)
    keep, drop = now[keep.pk], now[drop.pk]
    refusal = merge_refusal(keep, drop)
    if refusal is not None:
        raise MergeRefused(keep, drop, refusal)
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
