"""The players' totals kept per kind of game too (solo, partnership), and their streak in each kind on every rating
row: worked out again from the seats and the streaks of the games played before it."""

import bisect

from django.db import migrations, models

POINTS = (
    "high",
    "low",
    "jack",
    "off_jack",
    "joker",
    "big_joker",
    "little_joker",
    "ace",
    "off_ace",
    "ten",
    "deuce",
    "three",
    "off_three",
    "five",
    "game",
)
FIGURES = ("points", "hands", "pitched", "sets", *(f"won_{key}" for key in POINTS))  # Seat.FIGURES as this migration was written.
COUNTS = ("games", "wins", *FIGURES)
CHUNK = 5000  # Ids a query (a query's parameters are limited).


def count(apps, schema_editor):
    """A row per player, season and kind from the finished games' seats, and each rating row's streak in its kind."""
    Season = apps.get_model("scores", "Season")
    Seat = apps.get_model("scores", "Seat")
    SeasonTotal = apps.get_model("scores", "SeasonTotal")
    PlayerRating = apps.get_model("scores", "PlayerRating")
    starts: dict[int, tuple[list, list]] = {}  # By league: the seasons' first days, and their ids.
    for league_id, day, pk in Season.objects.order_by("starts_on").values_list("league_id", "starts_on", "pk"):
        days, pks = starts.setdefault(league_id, ([], []))
        days.append(day)
        pks.append(pk)

    def season_of(league_id, day):
        days, pks = starts.get(league_id, ([], []))
        i = bisect.bisect_right(days, day)
        return pks[i - 1] if i else None

    totals: dict[tuple, list] = {}
    seats = Seat.objects.filter(game__status="finished").order_by("game__played_on", "game_id")
    fields = ("player_id", "game__league_id", "game__played_on", "game__partnership", "game_id", "side_id", "game__winner_id", *FIGURES)
    for player, league, day, partnership, game, side, winner, *figures in seats.values_list(*fields).iterator(chunk_size=CHUNK):
        row = totals.setdefault((player, season_of(league, day), partnership), [0] * len(COUNTS) + [None])
        row[0] += 1
        row[1] += side == winner
        for i, figure in enumerate(figures, start=2):
            row[i] += figure
        row[-1] = game  # The latest so far: the seats come in the order played.
    SeasonTotal.objects.all().delete()
    SeasonTotal.objects.bulk_create(
        (
            SeasonTotal(player_id=player, season_id=season, partnership=partnership, last_game_id=row[-1], **dict(zip(COUNTS, row[:-1])))
            for (player, season, partnership), row in totals.items()
        ),
        batch_size=1000,
    )
    # A rating row's streak_after is above 0 after a win, below after a loss: the streak in each kind follows from it.
    streaks: dict[tuple, int] = {}
    alike: dict[int, list[int]] = {}  # The new streak: the rows that get it.
    ratings = PlayerRating.objects.order_by("game__played_on", "game_id").values_list("pk", "player_id", "game__partnership", "streak_after")
    for pk, player, partnership, streak_after in ratings.iterator(chunk_size=CHUNK):
        was = streaks.get((player, partnership), 0)
        streaks[player, partnership] = now = max(was, 0) + 1 if streak_after > 0 else min(was, 0) - 1
        alike.setdefault(now, []).append(pk)
    for streak, pks in alike.items():
        for i in range(0, len(pks), CHUNK):
            PlayerRating.objects.filter(pk__in=pks[i : i + CHUNK]).update(kind_streak_after=streak)


def merge_kinds(apps, schema_editor):
    """Back to a row per player and season: the kinds' rows added up, with the later of their last games."""
    SeasonTotal = apps.get_model("scores", "SeasonTotal")
    merged: dict[tuple, dict] = {}
    rows = SeasonTotal.objects.order_by("last_game__played_on", "last_game_id").values("player_id", "season_id", "last_game_id", *COUNTS)
    for row in rows:
        kept = merged.setdefault((row["player_id"], row["season_id"]), {**row, **dict.fromkeys(COUNTS, 0)})
        for field in COUNTS:
            kept[field] += row[field]
        if row["last_game_id"] is not None:
            kept["last_game_id"] = row["last_game_id"]
    SeasonTotal.objects.all().delete()
    SeasonTotal.objects.bulk_create((SeasonTotal(partnership=False, **row) for row in merged.values()), batch_size=1000)
    if schema_editor.connection.vendor == "postgresql":
        # The rows' deferred foreign key checks run now: PostgreSQL alters no table that has them pending.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [("scores", "0017_season_totals_of_the_games_played")]

    operations = [
        migrations.RemoveConstraint(model_name="seasontotal", name="one_total_per_player_and_season"),
        migrations.RemoveConstraint(model_name="seasontotal", name="one_total_per_player_before_seasons"),
        migrations.AddField(model_name="playerrating", name="kind_streak_after", field=models.IntegerField(default=0)),
        migrations.AddField(model_name="seasontotal", name="partnership", field=models.BooleanField(default=False), preserve_default=False),
        migrations.AddConstraint(
            model_name="seasontotal",
            constraint=models.UniqueConstraint(fields=("player", "season", "partnership"), name="one_total_per_player_season_and_kind"),
        ),
        migrations.AddConstraint(
            model_name="seasontotal",
            constraint=models.UniqueConstraint(
                condition=models.Q(("season__isnull", True)), fields=("player", "partnership"), name="one_total_per_player_and_kind_before_seasons"
            ),
        ),
        migrations.RunPython(count, merge_kinds),
    ]
