import importlib

from django.db import migrations


def zero_games_in_progress(apps, schema_editor):
    """The seats' figures are kept for finished games only: a game in progress holds zeros until it ends."""
    Seat = apps.get_model("scores", "Seat")
    figures = ["points", "hands", "pitched", "sets", "high", "low", "jack", "game_points"]
    Seat.objects.filter(game__status="in_progress").update(**dict.fromkeys(figures, 0))


class Migration(migrations.Migration):
    dependencies = [
        ("scores", "0011_account_language"),
    ]

    operations = [
        # Back to figures kept hand by hand: every game's counted again, as 0005 counted them.
        migrations.RunPython(zero_games_in_progress, importlib.import_module("scores.migrations.0005_seat_figures").count_figures),
    ]
