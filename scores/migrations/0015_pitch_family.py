"""The Pitch family: a game's (and a league's) variant, points and ``negative``; a hand's points in one JSON column
(point key -> the winning side's position); a seat's count of every kind of point; bids and scores up to the
largest total any game can have.

Every game stored before is a 4-point game: its hands' High, Low, Jack and Game move into ``points`` (the
columns' sides as positions, None where the Jack was not in play or Game tied), its seats' High, Low, Jack and
Game counts become ``won_high``, ``won_low``, ``won_jack`` and ``won_game``, and nothing else changes, so its
scores, standings and export stay what they were. Back the other way only while every game is a 4-point game.
"""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import JSONObject

# As the models had them when this was written.
MAX_TOTAL = 23
VARIANTS = ["4-point", "5-point", "6-point", "7-point", "8-point", "9-point", "10-point", "11-point", "13-point", "custom"]
OLD_POINTS = {"high": "high", "low": "low", "jack": "jack", "game": "game_point"}  # Point key -> the old column.
NEW_KINDS = ["off_jack", "joker", "big_joker", "little_joker", "ace", "off_ace", "ten", "deuce", "three", "off_three", "five"]


def points_from_columns(apps, schema_editor):
    """Each hand's four point columns as its ``points``: one UPDATE, whatever the number of hands."""
    Hand = apps.get_model("scores", "Hand")
    Side = apps.get_model("scores", "Side")

    def position(column: str) -> Subquery:
        return Subquery(Side.objects.filter(pk=OuterRef(f"{column}_id")).values("position")[:1])

    Hand.objects.update(points=JSONObject(**{key: position(column) for key, column in OLD_POINTS.items()}))


def columns_from_points(apps, schema_editor):
    """Back: the four columns from ``points``, which only a 4-point game's hands can give."""
    Game = apps.get_model("scores", "Game")
    Hand = apps.get_model("scores", "Hand")
    Side = apps.get_model("scores", "Side")
    if Game.objects.exclude(variant="4-point").exists():
        raise RuntimeError("games of other variants than 4-point are stored: their points have nowhere to go back to")
    sides = {(game, position): pk for pk, game, position in Side.objects.values_list("pk", "game_id", "position")}
    hands = list(Hand.objects.only("game_id", "points"))
    for hand in hands:
        for key, column in OLD_POINTS.items():
            position = hand.points[key]
            setattr(hand, f"{column}_id", None if position is None else sides[hand.game_id, position])
    Hand.objects.bulk_update(hands, [f"{column}" for column in OLD_POINTS.values()], batch_size=500)


def played_by(model: str) -> list:
    """The new rules fields and constraints of a game or a league (``PlayedBy``)."""
    return [
        migrations.AddField(
            model_name=model, name="variant", field=models.CharField(default="4-point", max_length=10, verbose_name="variant")
        ),
        migrations.AddField(
            model_name=model,
            name="points",
            field=models.CharField(default="high low jack game", max_length=100, verbose_name="points"),
        ),
        migrations.AddField(
            model_name=model, name="negative", field=models.BooleanField(default=True, verbose_name="scores may go below zero")
        ),
        migrations.AlterField(
            model_name=model,
            name="smudge",
            field=models.BooleanField(default=False, verbose_name="smudge: bidding the top bid and winning every point wins the game"),
        ),
        migrations.RemoveConstraint(model_name=model, name=f"{model}_min_bid_valid"),
        migrations.AlterField(
            model_name=model, name="min_bid", field=models.PositiveSmallIntegerField(default=1, verbose_name="minimum bid")
        ),
        migrations.AddConstraint(
            model_name=model,
            constraint=models.CheckConstraint(condition=models.Q(min_bid__gte=1, min_bid__lte=MAX_TOTAL), name=f"{model}_min_bid_range"),
        ),
        migrations.RemoveConstraint(model_name=model, name=f"{model}_target_range"),
        migrations.AddConstraint(
            model_name=model,
            constraint=models.CheckConstraint(condition=models.Q(target__gte=1, target__lte=999), name=f"{model}_target_range"),
        ),
        migrations.AddConstraint(
            model_name=model,
            constraint=models.CheckConstraint(condition=models.Q(variant__in=VARIANTS), name=f"{model}_variant_valid"),
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("scores", "0014_importjob_restarts_and_heartbeat"),
    ]

    operations = [
        *played_by("league"),
        *played_by("game"),
        # A hand's points.
        migrations.AddField(model_name="hand", name="points", field=models.JSONField(null=True)),
        # Nullable first, so that going back can add them empty and fill them in.
        *(
            migrations.AlterField(
                model_name="hand",
                name=column,
                field=models.ForeignKey(null=True, on_delete=models.CASCADE, related_name="+", to="scores.side"),
            )
            for column in ("high", "low")
        ),
        migrations.RunPython(points_from_columns, columns_from_points),
        migrations.AlterField(model_name="hand", name="points", field=models.JSONField()),
        *(migrations.RemoveField(model_name="hand", name=column) for column in OLD_POINTS.values()),
        migrations.RemoveConstraint(model_name="hand", name="hand_bid_range"),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(condition=models.Q(bid__gte=1, bid__lte=MAX_TOTAL), name="hand_bid_range"),
        ),
        migrations.RemoveConstraint(model_name="handscore", name="handscore_won_range"),
        migrations.AddConstraint(
            model_name="handscore",
            constraint=models.CheckConstraint(condition=models.Q(won__gte=0, won__lte=MAX_TOTAL), name="handscore_won_range"),
        ),
        migrations.RemoveConstraint(model_name="handscore", name="handscore_delta_range"),
        migrations.AddConstraint(
            model_name="handscore",
            constraint=models.CheckConstraint(
                condition=models.Q(delta__gte=-MAX_TOTAL, delta__lte=MAX_TOTAL), name="handscore_delta_range"
            ),
        ),
        # A seat's count of each kind of point: the four kinds a 4-point game has keep their counts.
        migrations.RenameField(model_name="seat", old_name="high", new_name="won_high"),
        migrations.RenameField(model_name="seat", old_name="low", new_name="won_low"),
        migrations.RenameField(model_name="seat", old_name="jack", new_name="won_jack"),
        migrations.RenameField(model_name="seat", old_name="game_points", new_name="won_game"),
        *(
            migrations.AddField(model_name="seat", name=f"won_{kind}", field=models.PositiveSmallIntegerField(default=0))
            for kind in NEW_KINDS
        ),
    ]
