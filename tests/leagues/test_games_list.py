"""The league's games list with its filters."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores.leagues.models import Player
from scores.table import services
from tests import small_league as leagues

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(league):
    return leagues.build(league)


def _codes(response) -> list[str]:
    return [game.code for game in response.context["page"].object_list]


@pytest.mark.parametrize(
    ("params", "codes"),
    [
        ({}, ["g3", "g2", "g1"]),
        ({"status": "finished"}, ["g2", "g1"]),
        ({"status": "in_progress"}, ["g3"]),
        ({"start": "2026-01-11"}, ["g3", "g2"]),
        ({"end": "2026-02-01"}, ["g2", "g1"]),
        ({"player": "Dan"}, ["g2"]),
        ({"player": "Cat", "status": "finished", "start": "2026-02-01"}, ["g2"]),
    ],
)
def test_filters(games, league, owner, client, params, codes):
    if "player" in params:
        params = {**params, "player": Player.objects.get(league=league, name=params["player"]).pk}
    client.force_login(owner)
    response = client.get(reverse("scores:game_list", args=[league.slug]), params)
    assert response.status_code == 200
    assert _codes(response) == codes


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"status": "abandoned"}, "Select a valid choice."),
        ({"player": "999999"}, "Select a valid choice."),
        ({"start": "tomorrow"}, "Enter a valid date."),
    ],
)
def test_a_bad_filter_is_a_400_with_a_message(games, league, owner, client, params, message):
    client.force_login(owner)
    response = client.get(reverse("scores:game_list", args=[league.slug]), params)
    assert response.status_code == 400
    assert message in response.text


def test_a_player_of_another_league_is_not_a_valid_filter(games, league, owner, client, make_user):
    from scores.engine import rules
    from scores.leagues.models import League

    other = League.objects.create(name="Other", slug="other")
    services.start_game(league=other, seats=["Xan", "Yul"], code="x", rules=rules.Rules())
    client.force_login(owner)
    response = client.get(reverse("scores:game_list", args=[league.slug]), {"player": Player.objects.get(name="Xan").pk})
    assert response.status_code == 400


@pytest.mark.parametrize("more_games", [0, 10])
def test_the_games_list_needs_the_same_queries_however_many_games(league, owner, client, django_assert_num_queries, more_games):
    leagues.build(league)
    leagues.grow(league, more_games)
    client.force_login(owner)
    # Session and user, membership, the variants and the players for the filter, count for the pages, the games, their seats.
    with django_assert_num_queries(2 + 1 + 1 + 1 + 1 + 2):
        response = client.get(reverse("scores:game_list", args=[league.slug]))
    assert len(response.context["page"].object_list) == 3 + more_games


def test_the_public_link_lists_the_games_a_page_at_a_time(league, client):
    leagues.build(league)
    leagues.grow(league, 30)  # 33 games: a page of 25, then the 8 oldest.
    league.public_token = "public-token"
    league.save(update_fields=["public_token"])
    url = reverse("scores:public_league", args=["public-token"])
    first = client.get(url)
    assert first.status_code == 200 and len(first.context["page"].object_list) == 25
    assert b"Page 1 of 2" in first.content and b"Older" in first.content and b"Newer" not in first.content
    second = client.get(url, {"page": 2, "sort": "wins"})
    codes = {game.code for game in second.context["page"].object_list}
    assert len(codes) == 8 and codes.isdisjoint(game.code for game in first.context["page"].object_list)
    assert b"Newer" in second.content and b"Standings" in second.content
    # The page links keep the sort.
    assert b'href="?page=1&amp;sort=wins"' in second.content
