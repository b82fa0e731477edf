"""OpenSkill ratings: game by game in the order played, stored per game and player, recomputed when a result changes."""

from __future__ import annotations

import datetime

import pytest
from openskill.models import PlackettLuce

from scores.engine import rules
from scores.history import services as history_services
from scores.standings import services as standings_services
from scores.standings.models import PlayerRating
from scores.table import services
from tests import small_league as leagues
from tests.conftest import hand

pytestmark = pytest.mark.django_db


def _r(*values: float) -> tuple[float, ...]:
    """Rounded so that floats computed the same way twice compare equal."""
    return tuple(round(v, 9) for v in values)


def _stored(game) -> dict[str, tuple[float, ...]]:
    return {
        r.player.name: _r(r.mu_before, r.sigma_before, r.mu_after, r.sigma_after)
        for r in PlayerRating.objects.filter(game=game).select_related("player")
    }


def _expected_first_two_games():
    """The two finished games of tests/small_league.py, rated with openskill directly."""
    model = PlackettLuce()
    ann, bob, cat, dan = (model.rating() for _ in range(4))
    # Game 1 ends Ann 7 (won), Bob -2, Cat 3: Ann 1st, Cat 2nd, Bob 3rd.
    [[ann1], [bob1], [cat1]] = model.rate([[ann], [bob], [cat]], ranks=[1, 3, 2])
    # Game 2: Us (Ann, Cat) lose to Them (Bob, Dan).
    [[ann2, cat2], [bob2, dan2]] = model.rate([[ann1, cat1], [bob1, dan]], ranks=[2, 1])
    g1 = {"Ann": (ann, ann1), "Bob": (bob, bob1), "Cat": (cat, cat1)}
    g2 = {"Ann": (ann1, ann2), "Cat": (cat1, cat2), "Bob": (bob1, bob2), "Dan": (dan, dan2)}
    flat = lambda d: {k: _r(a.mu, a.sigma, b.mu, b.sigma) for k, (a, b) in d.items()}  # noqa: E731
    return flat(g1), flat(g2)


def test_finished_games_are_rated_in_order_with_teams_for_partnerships(league):
    g1, g2, g3 = leagues.build(league)
    expected_g1, expected_g2 = _expected_first_two_games()
    assert _stored(g1) == expected_g1
    assert _stored(g2) == expected_g2
    assert _stored(g3) == {}  # In progress: not rated.


def test_a_rating_change_is_after_minus_before(league):
    g1, _g2, _g3 = leagues.build(league)
    ann = PlayerRating.objects.get(game=g1, player__name="Ann")
    assert ann.before == pytest.approx(ann.mu_before - 3 * ann.sigma_before)
    assert ann.change == pytest.approx(ann.after - ann.before)
    assert ann.change > 0  # She won.


def test_games_are_rated_in_the_order_played_not_the_order_entered(league):
    late = services.start_game(league=league, seats=["Ann", "Bob"], code="late", played_on=datetime.date(2026, 3, 1), rules=rules.Rules())
    for _ in range(2):
        services.record_hand(game=late, hand=hand("Bob", 4, "Bob", "Bob", "Bob", "Bob"))
    early = services.start_game(league=league, seats=["Ann", "Bob"], code="early", played_on=datetime.date(2026, 1, 1), rules=rules.Rules())
    for _ in range(2):
        services.record_hand(game=early, hand=hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"))
    model = PlackettLuce()
    [[ann1], [bob1]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    [[bob2], [ann2]] = model.rate([[bob1], [ann1]], ranks=[1, 2])
    assert _stored(early)["Ann"] == _r(25, 25 / 3, ann1.mu, ann1.sigma)
    assert _stored(late)["Ann"] == _r(ann1.mu, ann1.sigma, ann2.mu, ann2.sigma)
    assert _stored(late)["Bob"] == _r(bob1.mu, bob1.sigma, bob2.mu, bob2.sigma)


def test_editing_an_earlier_game_recomputes_the_later_ones(league):
    g1, g2, _g3 = leagues.build(league)
    before_g2 = _stored(g2)
    # Hand 2 of game 1: Bob now makes his bid of 3 (+Game), so Bob ends 4 and Cat 2: Bob 2nd, Cat 3rd.
    services.edit_hand(game=g1, number=2, hand=hand("Bob", 3, "Bob", "Bob", None, "Bob"))
    model = PlackettLuce()
    [[_ann1], [bob1], [cat1]] = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3])
    assert _stored(g1)["Bob"] == _r(25, 25 / 3, bob1.mu, bob1.sigma)
    after_g2 = _stored(g2)
    assert after_g2 != before_g2
    assert after_g2["Bob"][:2] == _r(bob1.mu, bob1.sigma)
    assert after_g2["Cat"][:2] == _r(cat1.mu, cat1.sigma)


def test_a_game_that_is_no_longer_finished_loses_its_ratings_and_later_games_move_on(league):
    g1, g2, _g3 = leagues.build(league)
    services.delete_hand(game=g1, number=4)  # Ann no longer goes out.
    assert _stored(g1) == {}
    model = PlackettLuce()
    fresh = model.rating()
    assert _stored(g2)["Ann"][:2] == _r(fresh.mu, fresh.sigma)


def test_recomputing_everything_gives_what_was_stored_game_by_game(league):
    g1, g2, _g3 = leagues.build(league)
    stored = (_stored(g1), _stored(g2))
    standings_services.update_ratings(league=league)
    assert (_stored(g1), _stored(g2)) == stored


def test_a_hand_in_a_game_still_in_progress_changes_no_rating(league):
    g1, g2, g3 = leagues.build(league)
    stored = (_stored(g1), _stored(g2))
    services.record_hand(game=g3, hand=hand("Bob", 1, "Bob", "Ann"))
    assert (_stored(g1), _stored(g2)) == stored
    assert not PlayerRating.objects.filter(game=g3).exists()


@pytest.mark.parametrize("more_games", [0, 8])
def test_ratings_need_a_number_of_queries_that_does_not_grow_with_games(league, django_assert_num_queries, more_games):
    leagues.build(league)
    leagues.grow(league, more_games)
    # Delete, latest ratings, games, seats with their final totals, insert; and the savepoint of @transaction.atomic.
    with django_assert_num_queries(7):
        standings_services.update_ratings(league=league)


@pytest.mark.parametrize(
    ("totals", "winner", "expected"),
    [
        ({"a": 7, "b": 9, "c": 3}, "a", {"a": 1, "b": 2, "c": 3}),  # The winner is first even with fewer points.
        ({"a": 7, "b": 2, "c": 2}, "a", {"a": 1, "b": 2, "c": 2}),  # Equal totals share a place.
        ({"us": 3, "them": 7}, "them", {"us": 2, "them": 1}),
    ],
)
def test_finishing_ranks(totals, winner, expected):
    assert rules.finishing_ranks(totals, winner) == expected


def test_imported_games_are_rated_like_games_played_in_the_app(league):
    import json

    other = type(league).objects.create(name="Imported", slug="imported")
    leagues.build(league)
    hands = lambda hs: [{"pitcher": h.pitcher, "bid": h.bid, **h.points} for h in hs]  # noqa: E731
    document = {
        "format": "pitch-history",
        "version": 1,
        # Out of order on purpose: the ratings follow the dates, not the file.
        "games": [
            {"id": "g2", "played_on": "2026-02-01", "seats": ["Ann", "Bob", "Cat", "Dan"], "hands": hands(leagues.G2_HANDS),
             "rules": {"teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}]}},
            {"id": "g1", "played_on": "2026-01-10", "seats": ["Ann", "Bob", "Cat"], "hands": hands(leagues.G1_HANDS)},
        ],
    }  # fmt: skip
    history_services.import_history(league=other, source=json.dumps(document))
    for code in ("g1", "g2"):
        assert _stored(other.games.get(code=code)) == _stored(league.games.get(code=code))
