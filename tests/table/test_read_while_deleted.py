"""A game's page read while another request deletes the game: the game is found, then its seats are gone
(``selectors.load_game``). The page answers as it now stands, a 404, as a moment later; a rematch asked for says the
game was deleted, on the league's page. Never a server error.

The delete is made to fall between the two reads: ``load_game`` deletes the game (as ``services.delete_game`` does)
before it reads the seats.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from django.urls import reverse

from scores.models import Game, League
from scores.table import selectors
from scores.table import services as table_services
from tests import small_league as leagues
from tests.conftest import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def deleted_while_read(monkeypatch) -> None:
    """Every ``load_game`` finds its game deleted by another request after the caller read it."""
    read = selectors.load_game

    def deleted_first(game: Game, **kwargs) -> selectors.GameState:
        table_services.delete_game(game=Game.objects.get(pk=game.pk), version=game.version)
        return read(game, **kwargs)

    monkeypatch.setattr(selectors, "load_game", deleted_first)


def _public(game: Game) -> str:
    League.objects.filter(pk=game.league_id).update(public_token="pub")
    return reverse("scores:public_game", args=["pub", game.pk])


PAGES: dict[str, Callable[[Game], tuple[str, dict]]] = {
    "game page": lambda game: (game.get_absolute_url(), {}),
    "score chart (htmx)": lambda game: (game.get_absolute_url(), {"part": "chart", "HTTP_HX_REQUEST": "true"}),
    "auction": lambda game: (reverse("scores:auction", args=[game.league.slug, game.pk]), {}),
    "watch link": lambda game: (reverse("scores:watch", args=[game.share_token]), {}),
    "public link": lambda game: (_public(game), {}),
}


@pytest.mark.parametrize("page", PAGES)
def test_a_page_of_a_game_deleted_while_it_is_read_is_not_found(owner_client, four_player_game, deleted_while_read, page):
    table_services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Bob", "Bob", "Bob"))
    url, params = PAGES[page](four_player_game)
    headers = {key: params.pop(key) for key in list(params) if key.startswith("HTTP_")}
    response = owner_client.get(url, params, **headers)
    assert response.status_code == 404
    assert not Game.objects.filter(pk=four_player_game.pk).exists()


def test_a_rematch_of_a_game_deleted_meanwhile_says_so_on_the_league_page(owner_client, league, deleted_while_read):
    leagues.build(league)
    game = Game.objects.get(code="g1")
    assert game.is_finished
    games = Game.objects.filter(league=league).count()
    response = owner_client.post(reverse("scores:rematch", args=[league.slug, game.pk]), follow=True)
    assert response.redirect_chain == [(league.get_absolute_url(), 302)]
    assert "The game was deleted meanwhile, so nothing was changed." in html.unescape(response.text)
    assert not Game.objects.filter(code="g1").exists() and Game.objects.filter(league=league).count() == games - 1  # No rematch.
