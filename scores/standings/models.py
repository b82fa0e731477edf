"""What the standings read instead of replaying games: the players' ratings after each game, the league's seasons and
the players' figures kept per season."""

from __future__ import annotations

import datetime

from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from ..leagues.models import League, Player
from ..table.models import Game, Seat


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
    games before the league's first season), kept by ``scores.standings.services.totals`` as games end, change and move to a
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
