"""The totals kept per player, season and kind of game equal those worked out from the seats after every kind of
write, seasons started before, between and after the games included; the standings of a season or of all time, of
every kind of game or of one, read them in one query."""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.apps import apps
from django.db import connection

from scores.leagues.models import Membership, Role
from scores.standings import services as standings_services
from scores.standings.models import PlayerRating, SeasonTotal
from scores.standings.selectors import seasons
from scores.standings.selectors.standings import standings
from scores.table import services
from tests import small_league as leagues
from tests.conftest import hand
from tests.standings.test_standings_kept_on_players import busy_league
from tests.totals import kept, recount

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(league, django_user_model):
    user = django_user_model.objects.create_user("olive", password="x" * 12)
    Membership.objects.create(league=league, user=user, role=Role.OWNER)
    return user


def _season_standings_hold(league) -> None:
    """Each season's standings, and all time's, of every kind of game and of each, from the kept totals equal those
    summed seat by seat for its days (streaks and ratings included)."""
    for mode in ("", "solo", "partnership"):
        assert standings(league, mode=mode) == standings(league, start=datetime.date.min, end=datetime.date.max, mode=mode), mode
        for season in seasons(league):
            summed = standings(league, start=season.starts_on, end=season.ends_on or datetime.date.max, mode=mode)
            assert standings(league, season=season, mode=mode) == summed, (season.name, mode)


@pytest.mark.parametrize("season_starts", [[], ["2026-02-01"], ["2025-01-01", "2026-03-03"], ["2026-03-04", "2026-03-10"]])
def test_the_kept_totals_equal_those_worked_out_from_the_seats_after_every_write(league, owner, season_starts):
    for day in season_starts:  # Before any game: the games that come find their season by their day.
        standings_services.start_season(league=league, name=day, starts_on=datetime.date.fromisoformat(day), by=owner)
    for step in busy_league(league):
        assert kept(league) == recount(league), step
        _season_standings_hold(league)


def test_a_season_started_after_the_games_takes_those_played_from_its_first_day(league, owner):
    for _step in busy_league(league):
        pass
    before = standings(league)
    for day in ["2026-02-01", "2026-03-03", "2026-03-10"]:
        standings_services.start_season(league=league, name=day, starts_on=datetime.date.fromisoformat(day), by=owner)
        assert kept(league) == recount(league), day
        _season_standings_hold(league)
    assert standings(league) == before  # All time is all time.
    latest = seasons(league)[0]
    assert [(row.name, row.games, row.wins) for row in standings(league, season=latest, sort="name", descending=False)] == [
        ("Ann", 1, 0),
        ("Dan", 1, 1),
    ]


def test_a_past_seasons_figures_follow_an_edit_of_one_of_its_games(league, owner):
    g1, _g2, _g3 = leagues.build(league)
    standings_services.start_season(league=league, name="Winter", starts_on=datetime.date(2026, 1, 1), by=owner)
    standings_services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 1), by=owner)
    winter = seasons(league)[1]
    before = {row.name: (row.games, row.wins, row.points) for row in standings(league, season=winter)}
    assert before["Ann"] == (2, 1, 8)
    services.edit_hand(game=g1, number=4, hand=hand("Cat", 4, "Cat", "Cat", "Cat", "Cat"))  # Cat reaches 6: nobody out.
    after = {row.name: (row.games, row.wins, row.points) for row in standings(league, season=winter)}
    assert after == {"Ann": (1, 0, 1), "Bob": (1, 1, 7), "Cat": (1, 0, 1), "Dan": (1, 1, 7)}  # Game 2 alone.
    services.edit_hand(game=g1, number=4, hand=hand("Ann", 1, "Ann", "Cat"))  # As it was: Ann goes out.
    assert {row.name: (row.games, row.wins, row.points) for row in standings(league, season=winter)} == before
    assert kept(league) == recount(league)
    _season_standings_hold(league)


@pytest.mark.parametrize("size", [2, 10])
def test_a_seasons_standings_are_one_query_however_many_games(league, owner, django_assert_num_queries, size):
    standings_services.start_season(league=league, name="All of it", starts_on=datetime.date(2025, 1, 1), by=owner)
    leagues.grow(league, size)
    [season] = seasons(league)
    with django_assert_num_queries(1):
        rows = standings(league, season=season)
    assert sum(row.games for row in rows) == 4 * size
    with django_assert_num_queries(1):
        assert standings(league) == rows
    for mode in ("solo", "partnership"):
        with django_assert_num_queries(1):
            of_kind = standings(league, season=season, mode=mode)
        with django_assert_num_queries(1):
            assert standings(league, mode=mode) == of_kind
        assert of_kind == standings(league, start=season.starts_on, end=datetime.date.max, mode=mode)
    # Each kind's games are some of them, and the two kinds are all of them.
    games = {mode: sum(row.games for row in standings(league, season=season, mode=mode)) for mode in ("solo", "partnership")}
    assert games["solo"] and games["partnership"] and sum(games.values()) == 4 * size


def test_the_migration_counts_the_games_played_before_it_by_season_and_kind(league, owner):
    standings_services.start_season(league=league, name="March", starts_on=datetime.date(2026, 3, 1), by=owner)
    for _step in busy_league(league):
        pass
    expected, streaks = recount(league), list(PlayerRating.objects.order_by("pk").values_list("pk", "kind_streak_after"))
    assert {streak for _pk, streak in streaks} - {-1, 1}, "a streak of more than one game in a kind"
    # As the migration finds the league: a row per player and season, none per kind, and no streaks by kind.
    SeasonTotal.objects.all().delete()
    PlayerRating.objects.update(kind_streak_after=0)
    migration = importlib.import_module("scores.migrations.0018_totals_by_kind_of_game")
    migration.count(apps, connection.schema_editor())
    assert kept(league) == expected
    assert list(PlayerRating.objects.order_by("pk").values_list("pk", "kind_streak_after")) == streaks
    _season_standings_hold(league)
