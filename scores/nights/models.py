"""Card nights: the night, its rounds (each table an ordinary game, ``Game.round``) and who sat a round out."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ..engine import planner
from ..leagues.models import League, PlayedBy, Player


class Night(PlayedBy):
    """A card night: the players present seated at several tables at once, round after round (``scores.engine.planner``).

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
    # Planned as a full rotation (``scores.engine.whist``): the page says whether its rounds kept to it.
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
                condition=models.Q(solo_size__gte=planner.MIN_SOLO_SIZE, solo_size__lte=planner.MAX_SOLO_SIZE), name="night_solo_size_range"
            ),
            models.CheckConstraint(condition=models.Q(rounds__gte=1, rounds__lte=planner.MAX_ROUNDS), name="night_rounds_range"),
            models.CheckConstraint(condition=models.Q(leftover__in=planner.LEFTOVERS), name="night_leftover_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scores:night_detail", args=[self.league.slug, self.pk])

    @property
    def seating(self) -> planner.Seating:
        return planner.Seating(partnership=self.partnership, solo_size=self.solo_size, leftover=self.leftover)


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
