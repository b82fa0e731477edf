"""Each seat's figures in its game (kept by the services for the standings) agree with the stored hands after every kind of write."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection

from scores import services
from scores.history import export as history_export
from scores.models import Game, Hand, HandScore, Seat
from tests import leagues
from tests.conftest import hand

pytestmark = pytest.mark.django_db


def counted_from_hands(seat: Seat) -> dict[str, int]:
    """The figures, counted the slow way from the stored hands and results."""
    hands = Hand.objects.filter(game=seat.game_id)
    scores = HandScore.objects.filter(side=seat.side_id)
    return {
        "points": sum(scores.values_list("delta", flat=True)),
        "hands": scores.count(),
        "pitched": hands.filter(pitcher=seat).count(),
        "sets": hands.filter(pitcher=seat, set=True).count(),
        "high": hands.filter(high=seat.side_id).count(),
        "low": hands.filter(low=seat.side_id).count(),
        "jack": hands.filter(jack=seat.side_id).count(),
        "game_points": hands.filter(game_point=seat.side_id).count(),
    }


def assert_figures_agree(league) -> None:
    seats = list(Seat.objects.filter(game__league=league))
    assert seats
    for seat in seats:
        assert {f: getattr(seat, f) for f in Seat.FIGURES} == counted_from_hands(seat), seat


def test_figures_after_recording_editing_and_deleting(league):
    leagues.build(league)
    assert_figures_agree(league)
    game = Game.objects.get(league=league, code="g1")
    ann = Seat.objects.get(game=game, player__name="Ann")
    assert (ann.points, ann.pitched, ann.sets, ann.high) == (7, 3, 0, 3)  # leagues.py's game 1, by hand
    services.edit_hand(game=game, number=1, hand=hand("Ann", 3, "Bob", "Bob", "Cat", "Cat"))
    assert_figures_agree(league)
    services.delete_hand(game=game, number=2)
    assert_figures_agree(league)


def test_figures_of_imported_games(league, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Bob"))
    other = type(league).objects.create(name="Copy", slug="copy")
    leagues.build(other)
    document = "".join(history_export.export_json(Game.objects.filter(league__in=[league, other]), league_name="x"))
    third = type(league).objects.create(name="Third", slug="third")
    services.import_history(league=third, source=document)
    assert_figures_agree(third)
    assert Game.objects.filter(league=third).count() == Game.objects.filter(league=other).count() + 1


def test_the_migration_counts_the_figures_of_existing_games(league):
    leagues.build(league)
    Seat.objects.update(points=0, hands=0, pitched=0, sets=0, high=0, low=0, jack=0, game_points=0)
    migration = importlib.import_module("scores.migrations.0005_seat_figures")
    migration.count_figures(apps, connection.schema_editor())
    assert_figures_agree(league)
