"""The demo league of `make run`: seeded again on every start, with its demo login, standings and ratings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores import selectors
from scores.demo import DEMO_PASSWORD, DEMO_USERNAME, create_demo_league
from scores.models import Game, League, PlayerRating

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
