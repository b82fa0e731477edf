"""The demo league of `make run`: seeded again on every start, with its demo login, standings and ratings."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from scores.demo import DEMO_PASSWORD, DEMO_USERNAME, create_demo_league
from scores.leagues.models import League
from scores.standings.models import PlayerRating
from scores.table import selectors
from scores.table.models import Game

pytestmark = pytest.mark.django_db


def test_seeding_twice_replaces_the_demo_league(client):
    create_demo_league()
    league = create_demo_league()  # `make run` seeds on every start.
    assert League.objects.filter(slug="demo").count() == 1
    finished = Game.objects.filter(league=league).finished().count()
    assert finished == 8  # Four by the rule sheet, three by house rules, one of ten-point Pitch.
    assert PlayerRating.objects.filter(game__league=league).values("game").distinct().count() == finished


def test_the_demo_login_sees_standings_and_the_ratings_chart(client):
    create_demo_league()
    assert client.login(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    response = client.get(reverse("scores:league_detail", args=["demo"]))
    assert response.status_code == 200
    assert {row.name for row in response.context["rows"]} == {"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"}
    assert "Ratings over time" in response.text and "<polyline" in response.text


def test_the_demo_league_has_a_finished_ten_point_game_of_three_teams():
    league = create_demo_league()
    game = league.games.get(variant="10-point")
    assert game.is_finished and game.sides.count() == 3 and game.seats.count() == 6
    replayed = selectors.load_game(game).replay()
    assert replayed.winner == game.winner.name and replayed.totals[replayed.winner] >= game.target == 52  # No smudge here.


def test_the_demo_league_has_house_rules_games_one_where_a_set_pitcher_at_the_target_played_on():
    league = create_demo_league()
    played_by = {game.code: game.rules for game in league.games.all()}
    assert sum(r.house != {} for r in played_by.values()) >= 3
    game = league.games.get(code="demo-made-bid")
    assert game.going_out == "made_bid" and game.is_finished
    replayed = selectors.load_game(game).replay()
    assert any(h.set and h.totals[h.pitcher_side] >= game.target and h.winner is None for h in replayed.hands)
    assert replayed.winner is not None and not replayed.hands[-1].set


def test_the_demo_league_is_named_in_the_language_it_is_made_in():
    """Its league and team names are stored names: made in Italian, they read as an Italian table's."""
    league = create_demo_league(language="it")
    assert league.name == "Lega dimostrativa"
    teams = set(league.games.get(code="demo-3").sides.values_list("name", flat=True))
    assert teams == {"Cuori", "Picche"}
    assert create_demo_league().name == "Demo League"  # English unless asked.


def test_seed_demo_takes_a_language_and_refuses_one_the_app_does_not_speak():
    call_command("seed_demo", "--language=vi", stdout=io.StringIO())
    assert League.objects.get(slug="demo").name == "Giải chơi thử"
    with pytest.raises(CommandError, match="invalid choice: 'de'"):
        call_command("seed_demo", "--language=de", stdout=io.StringIO())
    assert League.objects.get(slug="demo").name == "Giải chơi thử"  # Unchanged.
