"""An owner turns a game's watch link off or replaces it: the old link then opens nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scores.engine import qr
from scores.leagues.models import Role
from scores.table.models import Game

pytestmark = pytest.mark.django_db


def _watch(token: str) -> str:
    return reverse("scores:watch", args=[token])


def _link_url(game: Game) -> str:
    return reverse("scores:game_watch_link", args=[game.league.slug, game.pk])


def test_the_owner_turns_the_watch_link_off_and_on_again(owner_client, client, four_player_game):
    old = four_player_game.share_token
    assert client.get(_watch(old)).status_code == 200
    page = owner_client.post(_link_url(four_player_game), {"action": "off"}, follow=True).text
    assert "The watch link is off: it no longer opens the game." in page
    assert "/watch/" not in page and "Turn the watch link on" in page and "Turn the watch link off" not in page
    assert client.get(_watch(old)).status_code == 404
    assert Game.objects.get().share_token is None
    page = owner_client.post(_link_url(four_player_game), {"action": "new"}, follow=True).text
    new = Game.objects.get().share_token
    assert new and new != old and f"/watch/{new}/" in page
    assert client.get(_watch(new)).status_code == 200 and client.get(_watch(old)).status_code == 404


def test_replacing_the_watch_link_ends_the_old_one(owner_client, client, four_player_game):
    old = four_player_game.share_token
    page = owner_client.post(_link_url(four_player_game), {"action": "new"}, follow=True).text
    assert "The watch link is new: the old one no longer opens the game." in page
    assert client.get(_watch(old)).status_code == 404
    assert client.get(_watch(Game.objects.get().share_token)).status_code == 200


def test_the_game_page_shows_the_controls_to_owners_only(owner_client, client, make_user, league, four_player_game):
    page = owner_client.get(four_player_game.get_absolute_url()).text
    assert "Replace the watch link" in page and "Turn the watch link off" in page
    client.force_login(make_user("sam", league, Role.SCORER))
    page = client.get(four_player_game.get_absolute_url()).text
    assert f"/watch/{four_player_game.share_token}/" in page
    assert "Replace the watch link" not in page and "Turn the watch link off" not in page


@pytest.mark.parametrize("action", ["", "on", "OFF", "delete", "new\x00"])
def test_an_unknown_action_changes_nothing(owner_client, four_player_game, action):
    page = owner_client.post(_link_url(four_player_game), {"action": action}, follow=True).text
    assert "Unknown action for the watch link: choose off or new." in page
    assert Game.objects.get().share_token == four_player_game.share_token


def test_a_get_changes_nothing(owner_client, four_player_game):
    assert owner_client.get(_link_url(four_player_game), {"action": "off"}).status_code == 405
    assert Game.objects.get().share_token == four_player_game.share_token


def _qr_src(page: str) -> str:
    return re.search(r'<img class="watch-qr" src="([^"]+)"', page).group(1)


def test_the_qr_code_follows_the_watch_link_when_it_is_replaced(owner_client, four_player_game):
    """The QR code's address never changed and was kept an hour: after a new link the page showed the old code."""
    old_src = _qr_src(owner_client.get(four_player_game.get_absolute_url()).text)
    page = owner_client.post(_link_url(four_player_game), {"action": "new"}, follow=True).text
    new, src = Game.objects.get().share_token, _qr_src(page)

    assert src != old_src and new in src
    response = owner_client.get(src)
    assert response.status_code == 200 and response.content == qr.svg(f"http://testserver{_watch(new)}")
    assert owner_client.get(old_src).status_code == 404  # The old link's code is not offered any more.


def test_no_qr_code_while_the_watch_link_is_off(owner_client, four_player_game):
    """With the link off the QR code encoded /watch/None/."""
    src = _qr_src(owner_client.get(four_player_game.get_absolute_url()).text)
    page = owner_client.post(_link_url(four_player_game), {"action": "off"}, follow=True).text
    assert 'class="watch-qr"' not in page
    assert owner_client.get(src).status_code == 404
    assert b"/watch/None/" not in owner_client.get(src).content
