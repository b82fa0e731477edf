"""The player page: games with results and rating changes, rating over time, head to head, best partner."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores.leagues.models import Player
from scores.standings.models import PlayerRating
from scores.standings.selectors import player_context
from tests import small_league as leagues

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(league):
    return leagues.build(league)


def _player(league, name) -> Player:
    return Player.objects.get(league=league, name=name)


def test_head_to_head_counts_who_finished_ahead_in_finished_games(games, league):
    context = player_context(_player(league, "Bob"))
    records = {r["player"].name: (r["won"], r["lost"], r["tied"]) for r in context["head_to_head"]}
    # Game 1: Bob last (Ann 1st, Cat 2nd). Game 2: Bob's team beat Ann and Cat; Dan was his partner.
    assert records == {"Ann": (1, 1, 0), "Cat": (1, 1, 0)}


def test_best_partner(games, league):
    assert player_context(_player(league, "Bob"))["best_partner"]["player"].name == "Dan"
    assert player_context(_player(league, "Ann"))["best_partner"] == {"player": _player(league, "Cat"), "games": 1, "wins": 0}
    assert player_context(_player(league, "Ann"))["head_to_head"][0]["player"].name == "Bob"


def test_games_with_results_rating_changes_and_the_rating(games, league):
    g1, g2, g3 = games
    context = player_context(_player(league, "Ann"))
    rows = [(r["game"], r["won"], r["place"], r["total"]) for r in context["games"]]
    assert rows == [(g3, False, None, None), (g2, False, 2, 1), (g1, True, 1, 7)]
    change = PlayerRating.objects.get(game=g1, player__name="Ann").change
    assert context["games"][2]["rating_change"] == change
    assert context["rating"] == PlayerRating.objects.get(game=g2, player__name="Ann").after


def test_the_player_page_shows_it_all(games, league, owner, client):
    client.force_login(owner)
    response = client.get(reverse("scores:player_detail", args=[league.slug, _player(league, "Bob").pk]))
    assert "Best partner: Dan (won 1 of 1)" in response.text
    assert "Rating over time" in response.text
    assert response.text.count("<polyline") == 1
    assert "Lost (place 3)" in response.text
    assert "In progress" in response.text
    bob_g1 = PlayerRating.objects.get(game=games[0], player__name="Bob").change
    assert f"<td>{bob_g1:+.1f}</td>" in response.text


@pytest.mark.parametrize("more_games", [0, 15])
def test_the_player_page_needs_the_same_queries_however_many_games(league, owner, client, django_assert_num_queries, more_games):
    leagues.build(league)
    leagues.grow(league, more_games)  # grow() seats P0c in every third game: 5 of them, Ann plays 3.
    player = _player(league, "P0c") if more_games else _player(league, "Ann")
    client.force_login(owner)
    # Session and user, membership, the player, the seasons, whether a guest's games can be claimed (the user's claim,
    # the user's own player), and player_context's three queries.
    with django_assert_num_queries(2 + 1 + 1 + 1 + 2 + 3):
        client.get(reverse("scores:player_detail", args=[league.slug, player.pk]))
