"""The whole league's standings read each player's streak and rating as kept by the services (Player.streak,
Player.rating, PlayerRating.streak_after): after every kind of write they equal the standings worked out from
the games, as a season's standings are, and migration 0006 works out the same for leagues that had games before it."""

from __future__ import annotations

import datetime
import importlib
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.db import connection

from scores.engine import rules
from scores.history import services as history_services
from scores.leagues.models import Player
from scores.standings import services as standings_services
from scores.standings.models import PlayerRating
from scores.standings.selectors.standings import standings
from scores.table import services
from scores.table.models import Game
from tests import history_docs
from tests import small_league as leagues
from tests.conftest import hand

pytestmark = pytest.mark.django_db

# A season covering every game: its streaks and ratings are worked out from the games and ratings, nothing kept.
EVERY_GAME = {"start": datetime.date.min, "end": datetime.date.max}


def _sweep(who: str) -> rules.Hand:
    """A hand where ``who`` bids 4 and takes all four points."""
    return hand(who, 4, who, who, who, who)


def _play(league, code: str, day: datetime.date, seats: list[str], winner: str) -> Game:
    """A finished solo game to 7 that ``winner`` wins in two sweeps."""
    game = services.start_game(league=league, seats=seats, code=code, played_on=day, rules=rules.Rules())
    for _ in range(2):
        services.record_hand(game=game, hand=_sweep(winner))
    game.refresh_from_db()
    assert game.is_finished
    return game


def busy_league(league) -> Iterator[str]:
    """Writes of every kind that change who won what, some of them to games played before others; yields after each."""
    g1, _g2, g3 = leagues.build(league)  # g1 Ann wins (10 Jan), g2 Bob and Dan win (1 Feb), g3 in progress (2 Feb).
    yield "the hand-worked league"
    _play(league, "c1", datetime.date(2026, 3, 1), ["Ann", "Cat"], "Cat")
    _play(league, "c2", datetime.date(2026, 3, 2), ["Bob", "Cat"], "Cat")
    _play(league, "c3", datetime.date(2026, 3, 3), ["Cat", "Dan"], "Cat")
    _play(league, "d1", datetime.date(2026, 3, 4), ["Bob", "Dan"], "Dan")
    yield "later games: Cat wins three in a row"
    services.record_hand(game=g3, hand=_sweep("Ann"))
    yield "a game played before those finishes (Ann wins g3)"
    flip = _play(league, "flip", datetime.date(2026, 3, 10), ["Ann", "Dan"], "Ann")
    yield "the newest game finishes"
    services.edit_hand(game=flip, number=1, hand=_sweep("Dan"))
    yield "an edit leaves the newest game unfinished (4 all)"
    services.edit_hand(game=flip, number=2, hand=_sweep("Dan"))
    yield "another edit finishes it with the other winner (Dan's run goes on from 4 March)"
    services.delete_hand(game=g1, number=4)
    yield "a deleted hand leaves the league's first game unfinished"
    early = [history_docs.hand("Eve", 4, "Eve", "Eve", "Eve", "Eve")] * 2
    source = history_docs.document(
        history_docs.game("e1", seats=["Eve", "Ann"], hands=early, played_on="2025-12-01", rules={"target": 7}),
        history_docs.game("e2", seats=["Cat", "Eve"], hands=early, played_on="2025-12-02", rules={"target": 7}),
    )
    history_services.import_history(league=league, source=history_docs.dumps(source))
    yield "an import of games played before all the others"


def test_the_kept_streaks_and_ratings_equal_those_worked_out_from_the_games_after_every_write(league, django_assert_num_queries):
    seen = []
    for step in busy_league(league):
        with django_assert_num_queries(1):  # The totals kept per season, with what each player keeps: no walk through the games.
            kept = standings(league)
        assert kept == standings(league, **EVERY_GAME), step  # Every field: streaks, ratings to the last bit, and the rest.
        assert not seen or kept != seen[-1], f"{step}: the standings did not change"
        seen.append(kept)
    rows = {row.name: row for row in seen[-1]}
    assert {name: row.streak for name, row in rows.items()} == {"Ann": -2, "Bob": -3, "Cat": 3, "Dan": 2, "Eve": 2}
    assert all(row.rating is not None for row in rows.values())


def test_rating_the_whole_league_again_keeps_the_same_figures_after_every_write(league):
    def figures() -> tuple[list, list]:
        players = list(Player.objects.order_by("pk").values_list("name", "rating", "streak"))
        return players, sorted(PlayerRating.objects.values_list("game__code", "player__name", "streak_after"))

    for step in busy_league(league):
        kept = figures()
        standings_services.update_ratings(league=league)
        assert figures() == kept, step


def test_a_player_whose_only_finished_game_is_no_longer_finished_has_no_rating_and_no_streak_again(league):
    game = _play(league, "only", datetime.date(2026, 4, 1), ["Zed", "Yan"], "Zed")
    assert Player.objects.get(name="Zed").streak == 1 and Player.objects.get(name="Yan").streak == -1
    services.delete_hand(game=game, number=2)
    assert sorted(Player.objects.values_list("name", "rating", "streak")) == [("Yan", None, 0), ("Zed", None, 0)]
    assert standings(league) == []


def test_the_migration_works_out_the_same_streaks_and_ratings_from_the_stored_games(league):
    for _step in busy_league(league):
        pass
    kept = standings(league)
    after = dict(PlayerRating.objects.values_list("pk", "streak_after"))
    Player.objects.update(rating=None, streak=0)  # As the migration finds them: the new columns at their defaults.
    PlayerRating.objects.update(streak_after=0)
    migration = importlib.import_module("scores.migrations.0006_player_rating_and_streak")
    migration.backfill(apps, connection.schema_editor())
    assert standings(league) == kept == standings(league, **EVERY_GAME)
    assert dict(PlayerRating.objects.values_list("pk", "streak_after")) == after
