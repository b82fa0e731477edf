"""A league and who is in it: its members and their roles, invites, removals, and its players (members and guests);
the rules a league, a game or a card night is played by (``PlayedBy``)."""

from __future__ import annotations

import datetime
import secrets
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..engine import names, rules
from ..engine.rules import Rules

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from ..table.models import Game


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    SCORER = "scorer", _("Scorer")
    VIEWER = "viewer", _("Viewer")


# What each role may do; an owner may do everything a scorer may, and so on.
ROLE_RANK = {Role.VIEWER: 1, Role.SCORER: 2, Role.OWNER: 3}


def roles_at_least(role: str) -> list[str]:
    """The roles that may do what ``role`` may."""
    return [r.value for r, rank in ROLE_RANK.items() if rank >= ROLE_RANK[Role(role)]]


class GoingOut(models.TextChoices):
    PITCHER = "pitcher", _("A set pitcher at the target still goes out")
    MADE_BID = "made_bid", _("The pitcher goes out only by making the bid")


# Every variant's name, the custom game's too (``rules.VARIANTS``, ``rules.CUSTOM``).
VARIANT_NAMES = (*rules.VARIANTS, rules.CUSTOM.name)


class PlayedBy(models.Model):
    """The rules a game is played by (``rules.Rules``): its variant and points, its target and house rules, the
    4-point game's and the rule sheet's by default.

    A league holds them as the defaults for its new games; a game holds its own, copied when it starts, so
    changing the league's never changes a game already started. Nothing changes a game's once it has started.
    Whether a minimum bid fits the variant's total is the engine's to say (``rules.Rules``): the database holds
    only what any variant allows.
    """

    variant = models.CharField(_("variant"), max_length=10, default=rules.DEFAULT_VARIANT)
    # The point keys in the game's order, space-separated: "high low jack game" (``Rules.points``).
    points = models.CharField(_("points"), max_length=100, default=" ".join(rules.VARIANTS[rules.DEFAULT_VARIANT].points))
    target = models.PositiveSmallIntegerField(_("target"), default=rules.VARIANTS[rules.DEFAULT_VARIANT].target)
    going_out = models.CharField(_("going out"), max_length=10, choices=GoingOut.choices, default=rules.GOING_OUT[0])
    min_bid = models.PositiveSmallIntegerField(_("minimum bid"), default=rules.VARIANTS[rules.DEFAULT_VARIANT].min_bid)
    steal = models.BooleanField(_("the dealer may steal the bid"), default=True)
    smudge = models.BooleanField(_("smudge: bidding the top bid and winning every point wins the game"), default=False)
    negative = models.BooleanField(_("scores may go below zero"), default=True)
    # ``Rules.hands``: None plays to the target; a number ends the game after that many hands (a night's rounds).
    hands_per_round = models.PositiveSmallIntegerField(_("hands a round"), null=True, blank=True)

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(condition=models.Q(variant__in=VARIANT_NAMES), name="%(class)s_variant_valid"),
            models.CheckConstraint(
                condition=models.Q(target__gte=rules.MIN_TARGET, target__lte=rules.MAX_TARGET), name="%(class)s_target_range"
            ),
            models.CheckConstraint(condition=models.Q(going_out__in=rules.GOING_OUT), name="%(class)s_going_out_valid"),
            models.CheckConstraint(condition=models.Q(min_bid__gte=1, min_bid__lte=rules.MAX_TOTAL), name="%(class)s_min_bid_range"),
            models.CheckConstraint(
                condition=models.Q(hands_per_round__isnull=True)
                | models.Q(hands_per_round__gte=rules.MIN_HANDS, hands_per_round__lte=rules.MAX_HANDS),
                name="%(class)s_hands_per_round_range",
            ),
        ]

    @property
    def rules(self) -> rules.Rules:
        return rules.Rules(
            variant=self.variant,
            points=tuple(self.points.split()),
            target=self.target,
            going_out=self.going_out,
            min_bid=self.min_bid,
            steal=self.steal,
            smudge=self.smudge,
            negative=self.negative,
            hands=self.hands_per_round,
        )

    @staticmethod
    def fields_of(played_by: Rules) -> dict[str, object]:  # ``rules`` in here is the property above.
        """The model's fields for these rules: ``Rules.as_dict`` with the points as stored."""
        fields = played_by.as_dict()
        fields["points"] = " ".join(played_by.points)
        fields.pop("hands", None)
        fields["hands_per_round"] = played_by.hands
        return fields


class MemberAnnotations(TypedDict):
    """The user's membership, as ``for_member`` reads it with each league or game."""

    member_id: int
    member_role: str


class LeagueQuerySet(models.QuerySet):
    def for_user(self, user) -> LeagueQuerySet:
        """Leagues the user is a member of."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)

    def for_member(self, user, role: str = Role.VIEWER) -> LeagueQuerySet:
        """Leagues where the user is a member with at least ``role``, each with the user's membership read in
        the same query (``member_id``, ``member_role``; see ``Membership.read``). Anyone else finds none."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user, memberships__role__in=roles_at_least(role)).annotate(
            member_id=models.F("memberships__id"), member_role=models.F("memberships__role")
        )


class League(PlayedBy):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    public_token = models.CharField(max_length=40, unique=True, null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership", related_name="leagues")

    objects = LeagueQuerySet.as_manager()

    class Meta(PlayedBy.Meta):
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scores:league_detail", args=[self.slug])

    def get_public_url(self) -> str | None:
        """The read-only link for people without an account, while the owner keeps it on."""
        return reverse("scores:public_league", args=[self.public_token]) if self.public_token else None

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(24)


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_user_and_league"),
            models.CheckConstraint(condition=models.Q(role__in=Role.values), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league} ({self.role})"

    def allows(self, role: str) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]

    @classmethod
    def read(
        cls, found: WithAnnotations[League, MemberAnnotations] | WithAnnotations[Game, MemberAnnotations], league: League, user
    ) -> Membership:
        """The user's membership in ``league``, as ``for_member`` read it with ``found``."""
        return cls(pk=found.member_id, league=league, user=user, role=found.member_role)


INVITE_DAYS = 7  # How long an invite link works unless its owner picks another time.


def invite_expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=INVITE_DAYS)


class InviteQuerySet(models.QuerySet):
    def active(self) -> InviteQuerySet:
        """Links that still join the league: not revoked, not expired."""
        return self.filter(revoked=False, expires_at__gt=timezone.now())


class Invite(models.Model):
    """A link that makes whoever opens it (logged in) a member with ``role``, until it expires or the owner revokes it."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=40, unique=True, default=League.new_token, editable=False)
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.SCORER)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), default=invite_expiry)
    revoked = models.BooleanField(default=False)

    objects = InviteQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(role__in=["scorer", "viewer"]), name="invite_role_scorer_or_viewer"),
        ]

    def __str__(self) -> str:
        return f"invite to {self.league} as {self.role}"

    def get_absolute_url(self) -> str:
        return reverse("scores:invite_accept", args=[self.token])

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()


class Removal(models.Model):
    """An owner took ``user`` out of ``league``: the invite links made before then no longer let them back in.

    An invite made after the removal is the owner inviting them again; joining through it clears this record.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="one_removal_per_user_and_league")]

    def __str__(self) -> str:
        return f"{self.user} removed from {self.league}"


class PlayerQuerySet(models.QuerySet):
    def active(self) -> PlayerQuerySet:
        """Players the pickers offer: not archived (an archived player keeps their history)."""
        return self.filter(archived=False)

    def guests(self) -> PlayerQuerySet:
        """Players without an account: a name only."""
        return self.filter(user__isnull=True)


class Player(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=names.MAX_LENGTH)
    # Kept by services.update_ratings as it rates the league's finished games in the order played, so the
    # league's standings read them instead of walking every game: the rating after the player's latest
    # finished game (mu - 3 sigma; None before their first), and their current streak (+3: won the last
    # three; -2: lost the last two).
    rating = models.FloatField(null=True, blank=True, editable=False)
    streak = models.IntegerField(default=0, editable=False)
    # The member whose games these are; None: a guest, a name without an account (``Claim`` links one).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="players")
    # Left out of the pickers (new games, card nights); the standings and the games keep them.
    archived = models.BooleanField(_("archived"), default=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(Lower("name"), "league", name="player_name_unique_in_league_ignoring_case"),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
            models.UniqueConstraint(
                fields=["league", "user"], condition=models.Q(user__isnull=False), name="one_player_per_user_and_league"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None
