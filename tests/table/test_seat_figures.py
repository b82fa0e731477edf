"""Each seat's figures in its finished game (kept by the services for the standings) agree with the stored hands after
every kind of write; a game in progress holds zeros (the standings count only finished games)."""

from __future__ import annotations

import pytest

from scores.engine import rules
from scores.history import export as history_export
from scores.history import services as history_services
from scores.table import services
from scores.table.models import Game, Hand, HandScore, Seat
from tests import small_league as leagues
from tests.conftest import hand

pytestmark = pytest.mark.django_db


def counted_from_hands(seat: Seat) -> dict[str, int]:
    """The figures, counted the slow way from the stored hands and results."""
    hands = Hand.objects.filter(game=seat.game_id)
    scores = HandScore.objects.filter(side=seat.side_id)
    won = dict.fromkeys(rules.CATALOGUE, 0)
    for points in hands.values_list("points", flat=True):
        for key, position in points.items():
            won[key] += position == seat.side.position
    return {
        "points": sum(scores.values_list("delta", flat=True)),
        "hands": scores.count(),
        "pitched": hands.filter(pitcher=seat).count(),
        "sets": hands.filter(pitcher=seat, set=True).count(),
        **{Seat.POINT_FIGURES[key]: count for key, count in won.items()},
        "paper_games": 0,  # A game played on a phone: nothing from paper.
        "paper_points": 0,
    }


def assert_figures_agree(league) -> None:
    seats = list(Seat.objects.filter(game__league=league).select_related("game", "side"))
    assert any(seat.game.is_finished for seat in seats)
    for seat in seats:
        expected = counted_from_hands(seat) if seat.game.is_finished else dict.fromkeys(Seat.FIGURES, 0)
        assert {f: getattr(seat, f) for f in Seat.FIGURES} == expected, seat


def test_figures_after_recording_editing_and_deleting(league):
    leagues.build(league)
    assert_figures_agree(league)
    game = Game.objects.get(league=league, code="g1")
    ann = Seat.objects.get(game=game, player__name="Ann")
    assert (ann.points, ann.pitched, ann.sets, ann.won_high) == (7, 3, 0, 3)  # leagues.py's game 1, by hand
    services.edit_hand(game=game, number=1, hand=hand("Ann", 3, "Bob", "Bob", "Cat", "Cat"))
    assert_figures_agree(league)
    services.delete_hand(game=game, number=2)
    assert_figures_agree(league)


def test_figures_are_counted_as_the_game_ends_and_cleared_if_it_reopens(league):
    _g1, g2, g3 = leagues.build(league)
    seats = Seat.objects.filter(game=g3)
    assert g3.hands.count() == 1 and not g3.is_finished
    assert [s.hands for s in seats] == [0, 0]  # A game in progress: nothing counted yet.
    services.undo_hand(game=g2, number=2)  # The hand that ended it: the game goes on.
    g2.refresh_from_db()
    assert not g2.is_finished
    assert {s.hands for s in Seat.objects.filter(game=g2)} == {0}
    assert_figures_agree(league)
    services.record_hand(game=g2, hand=leagues.G2_HANDS[1])  # Ends it again: every hand counted.
    assert {s.hands for s in Seat.objects.filter(game=g2)} == {2}
    assert_figures_agree(league)


def test_figures_of_imported_games(league, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Bob"))
    other = type(league).objects.create(name="Copy", slug="copy")
    leagues.build(other)
    document = "".join(history_export.export_json(Game.objects.filter(league__in=[league, other]), league_name="x"))
    third = type(league).objects.create(name="Third", slug="third")
    history_services.import_history(league=third, source=document)
    assert_figures_agree(third)
    assert Game.objects.filter(league=third).count() == Game.objects.filter(league=other).count() + 1
