"""Pitch League's data: leagues and their members, players, games, hands and stored results.

The rules live in ``scores.rules``; these models hold what was played and the
engine's results for it, so pages and standings read scores instead of
replaying games. Writes that span models go through ``scores.services``.
"""

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

from . import names, nights, rules
from .history.document import MAX_ID_LENGTH
from .rules import Rules

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


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


# The most any hand can award: every point of the catalogue (a custom game may play them all). A bid, a hand's
# points won and a score change never go beyond it.
MAX_TOTAL = sum(point.value for point in rules.CATALOGUE.values())


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

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(condition=models.Q(variant__in=VARIANT_NAMES), name="%(class)s_variant_valid"),
            models.CheckConstraint(
                condition=models.Q(target__gte=rules.MIN_TARGET, target__lte=rules.MAX_TARGET), name="%(class)s_target_range"
            ),
            models.CheckConstraint(condition=models.Q(going_out__in=rules.GOING_OUT), name="%(class)s_going_out_valid"),
            models.CheckConstraint(condition=models.Q(min_bid__gte=1, min_bid__lte=MAX_TOTAL), name="%(class)s_min_bid_range"),
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
        )

    @staticmethod
    def fields_of(played_by: Rules) -> dict[str, object]:  # ``rules`` in here is the property above.
        """The model's fields for these rules: ``Rules.as_dict`` with the points as stored."""
        fields = played_by.as_dict()
        fields["points"] = " ".join(played_by.points)
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


class GameQuerySet(models.QuerySet):
    def finished(self) -> GameQuerySet:
        """Games that have a winner."""
        return self.filter(status=Game.Status.FINISHED)

    def in_progress(self) -> GameQuerySet:
        """Games still being played."""
        return self.filter(status=Game.Status.IN_PROGRESS)

    def played_between(self, start: datetime.date | None, end: datetime.date | None) -> GameQuerySet:
        """Games played from ``start`` to ``end``, both included; None leaves that side open (a season, say)."""
        games = self.filter(played_on__gte=start) if start else self
        return games.filter(played_on__lte=end) if end else games

    def with_seats(self) -> GameQuerySet:
        """Newest first, each with its winner and its seated players and their sides, in two queries however many games."""
        seats = Seat.objects.select_related("player", "side").order_by("position")
        return self.select_related("winner").prefetch_related(models.Prefetch("seats", queryset=seats)).order_by("-played_on", "-id")

    def for_member(self, user, role: str = Role.VIEWER) -> GameQuerySet:
        """Games of the leagues where the user is a member with at least ``role``, each with its league and the
        user's membership read in the same query (see ``LeagueQuerySet.for_member``). Anyone else finds none."""
        if not user.is_authenticated:
            return self.none()
        return (
            self.filter(league__memberships__user=user, league__memberships__role__in=roles_at_least(role))
            .select_related("league")
            .annotate(member_id=models.F("league__memberships__id"), member_role=models.F("league__memberships__role"))
        )

    def locked_state(self, pk: int) -> tuple[str, int | None, int]:
        """Lock the game's row until the transaction ends, and read what a write changes: status, winner, version.

        On SQLite the lock is the write lock each (IMMEDIATE) transaction takes as it begins."""
        return self.select_for_update().filter(pk=pk).values_list("status", "winner_id", "version").get()


class Game(PlayedBy):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="games")
    # The history format's game id: unique in the league, so an import never doubles a game.
    code = models.CharField(_("game id"), max_length=MAX_ID_LENGTH)
    played_on = models.DateField(_("played on"))
    partnership = models.BooleanField(_("partnership"), default=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    # A side is deleted only with its game; DO_NOTHING keeps Django from nulling the winner of a
    # finished game it is about to delete (the constraint below would refuse that).
    winner = models.ForeignKey("Side", on_delete=models.DO_NOTHING, null=True, blank=True, related_name="+")
    # The game's read-only link for anyone at the table: /watch/<token>/; None while the owner has it off.
    share_token = models.CharField(max_length=40, unique=True, null=True, blank=True, default=League.new_token, editable=False)
    # Bumped on every write: the live score's ETag.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # A table of a card night's round (``Night``): which round, its number there (1, 2, ...), and the member who
    # records its hands besides the owners (None: the owners alone). An ordinary game has none of them. No index
    # of their own: the unique constraint on round and table is the round's, and nothing looks games up by scorer.
    round = models.ForeignKey("Round", on_delete=models.PROTECT, null=True, blank=True, related_name="games", db_index=False)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    scorer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", db_index=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [
            *PlayedBy.Meta.constraints,
            models.UniqueConstraint(fields=["league", "code"], name="game_code_unique_in_league"),
            models.CheckConstraint(
                condition=models.Q(status="in_progress", winner__isnull=True) | models.Q(status="finished", winner__isnull=False),
                name="game_finished_has_winner",
            ),
            models.UniqueConstraint(fields=["round", "table"], name="one_game_per_table_and_round"),
            models.CheckConstraint(condition=models.Q(round__isnull=True) | models.Q(table__gte=1), name="night_game_has_a_table"),
        ]
        indexes = [
            models.Index(fields=["league", "played_on"]),
            # The variants and the sets of points a league plays (its standings' columns and filters) are read from
            # this index alone, not from every game's row.
            models.Index(fields=["league", "status", "variant", "points"]),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.played_on})"

    def get_absolute_url(self) -> str:
        return reverse("scores:game_detail", args=[self.league.slug, self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    def final_scores(self) -> list[tuple[Side, int]]:
        """Each side of a finished game with its final score, in seat order, from the seats ``with_seats`` read (no
        query): a seat of a finished game holds its side's score changes summed, which is the side's total."""
        scores: dict[int, tuple[Side, int]] = {}
        for seat in self.seats.all():
            scores.setdefault(seat.side_id, (seat.side, seat.points))
        return list(scores.values())


class Side(models.Model):
    """Whoever scores together: one player in solo play, a team in partnership play."""

    # No index of its own: the unique constraint that starts with it is one (each index is written on every insert).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sides", db_index=False)
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=names.MAX_LENGTH)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="side_position_unique_in_game"),
            models.UniqueConstraint(fields=["game", "name"], name="side_name_unique_in_game"),
        ]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """A player at the table; ``position`` 0 is seat 1, clockwise from there."""

    # No index of its own: the unique constraint that starts with it is one (each index is written on every insert).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="seats")
    # The seat's figures in its finished game, counted from the rules engine's results by the services when
    # the game ends (zeros while it is in progress), so the standings of a league of any size sum one row per
    # player per finished game.
    points = models.IntegerField(default=0)  # The side's score changes, summed.
    hands = models.PositiveSmallIntegerField(default=0)
    pitched = models.PositiveSmallIntegerField(default=0)
    sets = models.PositiveSmallIntegerField(default=0)  # Hands this player pitched and was set.
    # Hands where the seat's side won each point of the catalogue (``POINT_FIGURES``): a column per kind, so the
    # standings still sum one row per player per game (a row per seat and kind made them several times slower).
    won_high = models.PositiveSmallIntegerField(default=0)
    won_low = models.PositiveSmallIntegerField(default=0)
    won_jack = models.PositiveSmallIntegerField(default=0)
    won_off_jack = models.PositiveSmallIntegerField(default=0)
    won_joker = models.PositiveSmallIntegerField(default=0)
    won_big_joker = models.PositiveSmallIntegerField(default=0)
    won_little_joker = models.PositiveSmallIntegerField(default=0)
    won_ace = models.PositiveSmallIntegerField(default=0)
    won_off_ace = models.PositiveSmallIntegerField(default=0)
    won_ten = models.PositiveSmallIntegerField(default=0)
    won_deuce = models.PositiveSmallIntegerField(default=0)
    won_three = models.PositiveSmallIntegerField(default=0)
    won_off_three = models.PositiveSmallIntegerField(default=0)
    won_five = models.PositiveSmallIntegerField(default=0)
    won_game = models.PositiveSmallIntegerField(default=0)

    POINT_FIGURES = {key: f"won_{key}" for key in rules.CATALOGUE}  # Each point's column, in the catalogue's order.
    FIGURES = ("points", "hands", "pitched", "sets", *POINT_FIGURES.values())

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique_in_game"),
            models.UniqueConstraint(fields=["game", "player"], name="player_seated_once_per_game"),
            models.CheckConstraint(condition=models.Q(position__lt=rules.MAX_PLAYERS), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.player} (seat {self.position + 1})"


class Hand(models.Model):
    """One hand as reported at the table, with the engine's verdict stored beside it."""

    # No index of its own: the unique constraint that starts with it is one (each index is written on every insert).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveSmallIntegerField()
    dealer = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    pitcher = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    bid = models.PositiveSmallIntegerField()
    # The optional auction: [[seat position, bid or null], ...] from the dealer's left.
    auction = models.JSONField(null=True, blank=True)
    # Who won each of the game's points: {point key: the winning side's position, or None where the point was
    # missing (not in play; Game tied)}. One column, not a row or an indexed foreign key per point: an import writes
    # hundreds of thousands of hands, and every row and index more is written for each of them.
    points = models.JSONField()
    # Derived by the rules engine when the hand is written.
    set = models.BooleanField(default=False)
    ends_game = models.BooleanField(default=False)
    # A client-made key so a double tap or a retry stores the hand once.
    idempotency_key = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    # Set by the selectors that read a game's hands, not stored: who won each point (``with_points``) and the
    # hand's scores (``with_side_scores``).
    won: list[tuple[str, Side | None]]
    side_scores: list[HandScore]

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique_in_game"),
            # Only hands sent with a key are in its index: a hand entered by hand, or imported, has none.
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="hand_idempotency_key_unique_in_game",
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_from_one"),
            models.CheckConstraint(condition=models.Q(bid__gte=1, bid__lte=MAX_TOTAL), name="hand_bid_range"),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.game}"


class HandScore(models.Model):
    """One side's result in one hand, as the rules engine computed it."""

    # No index of its own: the unique constraint that starts with it is one (each index is written on every insert).
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="scores", db_index=False)
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="hand_scores")
    won = models.SmallIntegerField()
    delta = models.SmallIntegerField()
    total = models.IntegerField()

    class Meta:
        ordering = ["hand", "side__position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "side"], name="one_score_per_side_and_hand"),
            models.CheckConstraint(condition=models.Q(won__gte=0, won__lte=MAX_TOTAL), name="handscore_won_range"),
            models.CheckConstraint(condition=models.Q(delta__gte=-MAX_TOTAL, delta__lte=MAX_TOTAL), name="handscore_delta_range"),
        ]

    def __str__(self) -> str:
        return f"{self.side}: {self.delta:+d} → {self.total}"


class PlayerRatingQuerySet(models.QuerySet):
    def in_order_played(self) -> PlayerRatingQuerySet:
        """Oldest game first, as the ratings were computed."""
        return self.order_by("game__played_on", "game_id")


class PlayerRating(models.Model):
    """A player's OpenSkill rating before and after one finished game, stored by ``services.update_ratings``.

    The shown rating is the conservative estimate mu - 3 sigma (OpenSkill's
    ordinal): it starts at 0 and rises as the system becomes sure of a skill.
    """

    # No index of its own: the unique constraint that starts with it is one (each index is written on every insert).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ratings", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # The player's streak after this game, where the next rating picks up from (see Player.streak).
    streak_after = models.IntegerField(default=0)
    # The same counting only the games of this game's kind (solo or partnership), for the standings of one kind.
    kind_streak_after = models.IntegerField(default=0)

    objects = PlayerRatingQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="one_rating_per_player_and_game")]

    def __str__(self) -> str:
        return f"{self.player} after {self.game}: {self.after:.1f}"

    @property
    def before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return ordinal(self.mu_after, self.sigma_after)

    @property
    def change(self) -> float:
        return self.after - self.before


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown for an OpenSkill (mu, sigma): 99.7% sure the skill is at least this."""
    return mu - 3 * sigma


class Season(models.Model):
    """A stretch of a league's games: those played from ``starts_on`` up to the day before the next season starts.

    Games are placed by the day they were played, never stored with a season, so a game added or edited in a
    past season counts in that season's figures, and a game played before the first season is in "All time" only.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=60)
    starts_on = models.DateField(_("starts on"))
    created_at = models.DateTimeField(auto_now_add=True)

    # Set by ``selectors.seasons``, not stored: the day before the next season starts (None for the latest).
    ends_on: datetime.date | None

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["league", "starts_on"], name="one_season_start_per_day_and_league"),
            models.UniqueConstraint(Lower("name"), "league", name="season_name_unique_in_league_ignoring_case"),
            models.CheckConstraint(condition=~models.Q(name=""), name="season_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class SeasonTotal(models.Model):
    """A player's figures in the finished games of one kind (solo or partnership) of one season (``season`` None: the
    games before the league's first season), kept by ``scores.services.totals`` as games end, change and move to a
    new season.

    The standings of a season, or of all time, of every kind of game or of one, then read a row per player, season
    and kind instead of a seat per game. ``last_game`` is the player's latest finished game of that kind in the
    season, whose rating row holds their rating and streaks after it. The figures are the seats' (``Seat.FIGURES``),
    summed.
    """

    # No index of its own: the unique constraints that start with it are one.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_totals", db_index=False)
    season = models.ForeignKey(Season, on_delete=models.CASCADE, null=True, blank=True, related_name="totals")
    partnership = models.BooleanField()  # The kind of game: Game.partnership.
    games = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    # Then a column for each of the seats' figures, summed (added below from ``Seat.FIGURES``, their one list).
    last_game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", db_index=False)

    COUNTS = ("games", "wins", *Seat.FIGURES)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "season", "partnership"], name="one_total_per_player_season_and_kind"),
            models.UniqueConstraint(
                fields=["player", "partnership"],
                condition=models.Q(season__isnull=True),
                name="one_total_per_player_and_kind_before_seasons",
            ),
        ]

    def __str__(self) -> str:
        kind = "partnership" if self.partnership else "solo"
        return f"{self.player} in {kind} games of {self.season or 'the games before the first season'}"


for _figure in Seat.FIGURES:  # So a figure added to the seats is kept per season with nothing else to change.
    SeasonTotal.add_to_class(_figure, models.IntegerField(default=0))


class Night(PlayedBy):
    """A card night: the players present seated at several tables at once, round after round (``scores.nights``).

    Each table of a round is an ordinary game of the league (``Game.round``, ``Game.table``), played by the
    night's rules. The seed makes the seating of each next round reproducible from the rounds stored.
    """

    class Leftover(models.TextChoices):
        SOLO = "solo", _("Seat them solo at a table of three or five")
        BYES = "byes", _("They sit out the round, in turn")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="nights")
    name = models.CharField(_("name"), max_length=60)
    played_on = models.DateField(_("played on"))
    partnership = models.BooleanField(_("partnership"), default=True)
    solo_size = models.PositiveSmallIntegerField(_("players at a solo table"), default=4)
    leftover = models.CharField(_("players left over"), max_length=4, choices=Leftover.choices, default=Leftover.SOLO)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    # Planned as a full rotation (``scores.whist``): the page says whether its rounds kept to it.
    rotation = models.BooleanField(_("full rotation"), default=False)
    seed = models.PositiveIntegerField(editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped by every change to the night itself (a round started, a table's scorer): with its games' versions,
    # the live page's ETag.
    version = models.PositiveIntegerField(default=0)

    class Meta(PlayedBy.Meta):
        ordering = ["-played_on", "-id"]
        constraints = [
            *PlayedBy.Meta.constraints,
            models.CheckConstraint(
                condition=models.Q(solo_size__gte=nights.MIN_SOLO_SIZE, solo_size__lte=nights.MAX_SOLO_SIZE), name="night_solo_size_range"
            ),
            models.CheckConstraint(condition=models.Q(rounds__gte=1, rounds__lte=nights.MAX_ROUNDS), name="night_rounds_range"),
            models.CheckConstraint(condition=models.Q(leftover__in=nights.LEFTOVERS), name="night_leftover_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scores:night_detail", args=[self.league.slug, self.pk])

    @property
    def seating(self) -> nights.Seating:
        return nights.Seating(partnership=self.partnership, solo_size=self.solo_size, leftover=self.leftover)


class Round(models.Model):
    """One round of a card night: its tables are the games pointing at it; who sat out are its byes."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="played_rounds")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="round_number_unique_in_night"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_from_one"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.night}"


class Bye(models.Model):
    """A player present at a card night who sits out one round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="one_bye_per_player_and_round")]

    def __str__(self) -> str:
        return f"{self.player} sits out {self.round}"


class Claim(models.Model):
    """A member asks for a guest's games to be theirs; an owner confirms (the guest becomes the member's player) or declines."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["player", "user"], name="one_claim_per_user_and_player")]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player}"


class RequestCount(models.Model):
    """How often one key (an address, an e-mail) asked for a limited action in one window (``scores.accounts.rate_limit``)."""

    key = models.CharField(max_length=300)  # "signup:address:192.0.2.1", "reset:email:olive@example.com"
    window = models.DateTimeField()  # When the window began.
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "window"], name="unique_request_count_key_window")]
        indexes = [models.Index(fields=["window"])]

    def __str__(self) -> str:
        return f"{self.key} at {self.window:%Y-%m-%d %H:%M}: {self.count}"


class ImportJobQuerySet(models.QuerySet):
    def waiting(self) -> ImportJobQuerySet:
        """Jobs not over yet: waiting for a worker or being run."""
        return self.exclude(status__in=ImportJob.OVER)


class ImportJob(models.Model):
    """A history file uploaded for import, waiting for or run by the background worker (``scores.tasks``).

    The file's bytes wait here until the import is over, whatever its end; what it found (the games imported and
    skipped, or every problem) stays for the page that shows it.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting to start")
        CHECKING = "checking", _("Checking the file")
        STORING = "storing", _("Storing the games")
        DONE = "done", _("Done")
        FAILED = "failed", _("Nothing was imported")
        LOST = "lost", _("Stopped with its worker")

    OVER = (Status.DONE, Status.FAILED, Status.LOST)
    # How far along each step is, for the progress bar: the steps take about this share of an import's time.
    PERCENT: dict[str, int] = {
        Status.QUEUED: 5,
        Status.CHECKING: 25,
        Status.STORING: 60,
        Status.DONE: 100,
        Status.FAILED: 100,
        Status.LOST: 100,
    }

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="import_jobs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    filename = models.CharField(max_length=255)
    language = models.CharField(max_length=10, default=settings.LANGUAGE_CODE)  # The uploader's, for the problems.
    source = models.BinaryField(editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    games = models.PositiveIntegerField(default=0)  # Games in the file.
    imported = models.JSONField(default=list)  # Game ids.
    skipped = models.JSONField(default=list)
    matched = models.JSONField(default=list)  # [name in the file, the league player's name] spelt another way.
    problems = models.JSONField(default=list)  # Each problem as text, with where it is.
    restarts = models.PositiveSmallIntegerField(default=0)  # Times it was started again after its worker stopped.
    created_at = models.DateTimeField(auto_now_add=True)
    # The last sign of life of the worker running it (each step, and a heartbeat while it runs), for scores.tasks.watch_import.
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = ImportJobQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.filename} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("scores:import_job", args=[self.league.slug, self.pk])

    @property
    def is_over(self) -> bool:
        return self.status in self.OVER

    @property
    def percent(self) -> int:
        return self.PERCENT[self.status]


class AccountLanguage(models.Model):
    """The language a signed-in player chose with the switcher (``scores.accounts.language``): a log-in on any phone speaks it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+")
    language = models.CharField(max_length=10)  # A code of settings.LANGUAGES, checked by the switcher's view.

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
