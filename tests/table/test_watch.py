"""The read-only link: anyone can follow the score; polling costs a 304 when nothing changed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.table import services
from tests.conftest import hand

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def watch_url(game) -> str:
    return reverse("scores:watch", args=[game.share_token])


def test_anyone_with_the_link_sees_the_score_without_logging_in(client, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Bob", "Bob", "Bob"))
    response = client.get(watch_url(four_player_game))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Bob made 2, +3" in html and "Hand 2" in html and "Bob deals, Cat bids first" in html
    assert f'hx-get="{watch_url(four_player_game)}" hx-trigger="every 3s"' in html
    assert "Save hand" not in html and "Undo last hand" not in html and ">Edit<" not in html


def test_an_unknown_link_is_404(client):
    assert client.get(reverse("scores:watch", args=["no-such-token"])).status_code == 404


def test_polling_gets_304_until_the_game_changes(client, four_player_game):
    first = client.get(watch_url(four_player_game), **HTMX)
    etag = first["ETag"]
    assert first.status_code == 200 and "<html" not in first.content.decode()
    assert "no-cache" in first["Cache-Control"] and "HX-Request" in first["Vary"]

    unchanged = client.get(watch_url(four_player_game), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert unchanged.status_code == 304 and unchanged.content == b""

    services.record_hand(game=four_player_game, hand=hand("Cat", 1, "Cat", "Dan"))
    changed = client.get(watch_url(four_player_game), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "Cat made 1, +1" in changed.content.decode()


def test_the_page_and_the_fragment_have_different_etags(client, four_player_game):
    page = client.get(watch_url(four_player_game))
    fragment = client.get(watch_url(four_player_game), HTTP_IF_NONE_MATCH=page["ETag"], **HTMX)
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()


def test_the_winner_shows_on_the_watch_page(client, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=2))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    assert "Ann won!" in client.get(watch_url(game)).content.decode()


@pytest.mark.parametrize("signed_in", [False, True], ids=["anyone", "the owner"])
def test_a_poll_costs_one_unordered_query_when_nothing_changed(client, owner, four_player_game, django_assert_num_queries, signed_in):
    # A phone signed in polls as cheaply: a 304 reads neither its session nor its account.
    if signed_in:
        client.force_login(owner)
    etag = client.get(watch_url(four_player_game), **HTMX)["ETag"]
    with django_assert_num_queries(1) as queries:
        assert client.get(watch_url(four_player_game), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    # The version alone, found by the unique token: sorting the one row by its key is work for nothing.
    assert "ORDER BY" not in queries.captured_queries[0]["sql"]
