"""A league's people: its players with their games and accounts, the claims waiting for an owner, and what merging two
players would do (or why it cannot)."""

from __future__ import annotations

import dataclasses
from typing import Literal

from django.db.models import Count, Min, Q, QuerySet

from ..leagues.models import League, Player
from ..nights.models import Round
from ..table.models import Game, Seat
from .models import Claim


def people_context(league: League, user) -> dict:
    """The players (archived last) with their games and accounts, the claims waiting, and the user's own player and
    claims: four queries."""
    players = list(Player.objects.filter(league=league).select_related("user").annotate(games=Count("seats")).order_by("archived", "name"))
    claims = list(Claim.objects.filter(player__league=league).select_related("player", "user"))
    return {
        "players": players,
        "claims": claims,
        "mine": next((p for p in players if p.user_id == user.pk), None),
        "claimed": {claim.player_id for claim in claims if claim.user_id == user.pk},
    }


@dataclasses.dataclass(frozen=True)
class MergeRefusal:
    """Why two players cannot be merged (``services.MergeRefused`` says it): "same", one player twice; "leagues", of
    two leagues; "accounts", each has an account; "game", they played in the game ``game`` (its code); "round", they
    were at one round of a card night; "in_progress", the one to merge in has a game in progress."""

    reason: Literal["same", "leagues", "accounts", "game", "round", "in_progress"]
    game: str = ""


def merge_refusal(keep: Player, drop: Player) -> MergeRefusal | None:
    """Why ``drop`` cannot be merged into ``keep`` (they are not the same person as far as the games tell), or None."""
    if keep.pk == drop.pk:
        return MergeRefusal("same")
    if keep.league_id != drop.league_id:
        return MergeRefusal("leagues")
    if keep.user_id and drop.user_id and keep.user_id != drop.user_id:
        return MergeRefusal("accounts")
    shared = (
        Game.objects.filter(seats__player=keep)
        .filter(seats__player=drop)
        .order_by("played_on", "pk")
        .values_list("code", flat=True)
        .first()
    )
    if shared is not None:
        return MergeRefusal("game", game=shared)
    if _rounds(keep).filter(pk__in=_rounds(drop).values("pk")).exists():
        return MergeRefusal("round")
    if Game.objects.filter(seats__player=drop).in_progress().exists():
        return MergeRefusal("in_progress")
    return None


def _rounds(player: Player) -> QuerySet[Round]:
    """The card nights' rounds the player was at: seated, or sitting out."""
    return Round.objects.filter(Q(games__seats__player=player) | Q(byes__player=player))


def merge_preview(keep: Player, drop: Player) -> dict:
    """What merging ``drop`` into ``keep`` would move: games, finished games (whose ratings are worked out again
    from the first of them), and what ``keep`` would have; or why it cannot be done."""
    figures = Seat.objects.filter(player__in=[keep, drop]).aggregate(
        keep_games=Count("id", filter=Q(player=keep)),
        drop_games=Count("id", filter=Q(player=drop)),
        drop_finished=Count("id", filter=Q(player=drop, game__status=Game.Status.FINISHED)),
        first=Min("game__played_on", filter=Q(player=drop, game__status=Game.Status.FINISHED)),
    )
    return {
        "keep": keep,
        "drop": drop,
        "refusal": merge_refusal(keep, drop),
        **figures,
        "total": figures["keep_games"] + figures["drop_games"],
    }
