"""What was played at a table: games, their sides and seats, the hands and each side's score after each."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ..engine import names, rules
from ..engine.names import MAX_ID_LENGTH
from ..leagues.models import League, PlayedBy, Player, Role, roles_at_least


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
    # Recorded from paper: only its final scores (the seats' points) and, if known, how many hands it had. It has
    # no hands, so the figures counted from hands stay zero on its seats.
    on_paper = models.BooleanField(_("recorded from paper"), default=False)
    paper_hands = models.PositiveSmallIntegerField(_("hands played"), null=True, blank=True)

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
            models.CheckConstraint(
                condition=models.Q(on_paper=True) | models.Q(paper_hands__isnull=True), name="game_paper_hands_only_on_paper"
            ),
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
    # standings sum one row per player per game, within their budget at league size (BENCHMARKS.md).
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
    # A game recorded from paper (``Game.on_paper``): 1, and its side's final score (in ``points`` too), so the
    # figures per hand leave out the points of games that have no hands.
    paper_games = models.PositiveSmallIntegerField(default=0)
    paper_points = models.IntegerField(default=0)

    POINT_FIGURES = {key: f"won_{key}" for key in rules.CATALOGUE}  # Each point's column, in the catalogue's order.
    FIGURES = ("points", "hands", "pitched", "sets", *POINT_FIGURES.values(), "paper_games", "paper_points")

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
            models.CheckConstraint(condition=models.Q(bid__gte=1, bid__lte=rules.MAX_TOTAL), name="hand_bid_range"),
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
            models.CheckConstraint(condition=models.Q(won__gte=0, won__lte=rules.MAX_TOTAL), name="handscore_won_range"),
            models.CheckConstraint(
                condition=models.Q(delta__gte=-rules.MAX_TOTAL, delta__lte=rules.MAX_TOTAL), name="handscore_delta_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.side}: {self.delta:+d} → {self.total}"
