"""The totals kept per player and season equal those worked out from the seats after every kind of write, seasons
started before, between and after the games included; the standings of a season read them in one query."""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.apps import apps
from django.db import connection

from scores import services
from scores.models import Membership, Role, SeasonTotal
from scores.selectors import seasons
from scores.selectors.standings import standings

from . import leagues
from .conftest import hand
from .test_standings_kept_on_players import busy_league
from .totals import kept, recount

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(league, django_user_model):
    user = django_user_model.objects.create_user("olive", password="x" * 12)
    Membership.objects.create(league=league, user=user, role=Role.OWNER)
    return user


def _season_standings_hold(league) -> None:
    """Each season's standings, and all time's, from the kept totals equal those summed seat by seat for its days."""
    assert standings(league) == standings(league, start=datetime.date.min, end=datetime.date.max)
    for season in seasons(league):
        assert standings(league, season=season) == standings(league, start=season.starts_on, end=season.ends_on or datetime.date.max)


@pytest.mark.parametrize("season_starts", [[], ["2026-02-01"], ["2025-01-01", "2026-03-03"], ["2026-03-04", "2026-03-10"]])
def test_the_kept_totals_equal_those_worked_out_from_the_seats_after_every_write(league, owner, season_starts):
    for day in season_starts:  # Before any game: the games that come find their season by their day.
        services.start_season(league=league, name=day, starts_on=datetime.date.fromisoformat(day), by=owner)
    for step in busy_league(league):
        assert kept(league) == recount(league), step
        _season_standings_hold(league)


def test_a_season_started_after_the_games_takes_those_played_from_its_first_day(league, owner):
    for _step in busy_league(league):
        pass
    before = standings(league)
    for day in ["2026-02-01", "2026-03-03", "2026-03-10"]:
        services.start_season(league=league, name=day, starts_on=datetime.date.fromisoformat(day), by=owner)
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
    services.start_season(league=league, name="Winter", starts_on=datetime.date(2026, 1, 1), by=owner)
    services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 1), by=owner)
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
    services.start_season(league=league, name="All of it", starts_on=datetime.date(2025, 1, 1), by=owner)
    leagues.grow(league, size)
    [season] = seasons(league)
    with django_assert_num_queries(1):
        rows = standings(league, season=season)
    assert sum(row.games for row in rows) == 4 * size
    with django_assert_num_queries(1):
        assert standings(league) == rows


def test_the_migration_counts_the_games_played_before_it(league):
    for _step in busy_league(league):
        pass
    expected = recount(league)
    SeasonTotal.objects.all().delete()  # As the migration finds the league: no totals yet, no seasons.
    migration = importlib.import_module("scores.migrations.0017_season_totals_of_the_games_played")
    migration.count(apps, connection.schema_editor())
    assert kept(league) == expected
