"""The players' totals of the games played before seasons existed: all of them before the first season."""

from django.db import migrations
from django.db.models import Count, F, Q, Sum

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


def count(apps, schema_editor):
    Seat = apps.get_model("scores", "Seat")
    SeasonTotal = apps.get_model("scores", "SeasonTotal")
    seats = Seat.objects.filter(game__status="finished")
    sums = seats.values("player_id").annotate(
        games=Count("id"), wins=Count("id", filter=Q(game__winner=F("side"))), **{f"{f}_sum": Sum(f) for f in FIGURES}
    )
    latest = {}
    for player, game in seats.order_by("game__played_on", "game_id").values_list("player_id", "game_id").iterator():
        latest[player] = game
    SeasonTotal.objects.bulk_create(
        SeasonTotal(
            player_id=row["player_id"],
            season=None,
            games=row["games"],
            wins=row["wins"],
            last_game_id=latest[row["player_id"]],
            **{f: row[f"{f}_sum"] for f in FIGURES},
        )
        for row in sums
    )


class Migration(migrations.Migration):
    dependencies = [("scores", "0016_seasons_nights_people")]

    operations = [migrations.RunPython(count, migrations.RunPython.noop)]
