"""Renaming a player in the admin renames them in their solo games too, so those games can still be scored."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.history import document as history_document
from scores.history import export as history_export
from scores.leagues.models import Player
from scores.table import selectors, services
from scores.table.models import Game
from tests.conftest import hand

pytestmark = pytest.mark.django_db


def rename_in_admin(admin_client, player: Player, name: str):
    url = reverse("admin:scores_player_change", args=[player.pk])
    return admin_client.post(url, {"name": name, "league": player.league_id})


def test_a_renamed_player_keeps_playing_their_solo_game(admin_client, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Bob"))
    version = Game.objects.get(pk=four_player_game.pk).version
    response = rename_in_admin(admin_client, Player.objects.get(name="Ann"), "Anne")
    assert response.status_code == 302
    state = selectors.load_game(four_player_game)
    assert state.table.seats[0] == "Anne" and "Anne" in state.sides and "Ann" not in state.sides
    saved = services.record_hand(game=four_player_game, hand=hand("Anne", 2, "Anne", "Bob"))
    assert saved.number == 2 and {s.side_id for s in saved.side_scores} == {side.pk for side in state.sides.values()}
    assert Game.objects.get(pk=four_player_game.pk).version == version + 2  # The rename, then the hand.
    # The exported game names the seat and its side alike, as the format requires; it reads back.
    [document] = history_export.stored_games(Game.objects.filter(pk=four_player_game.pk))
    assert document["seats"][0] == "Anne" and "Anne" in document["hands"][0]["totals"]
    history_document.read_document({"format": "pitch-history", "version": 2, "games": [document]})


def test_a_team_keeps_its_name_when_a_partner_is_renamed(admin_client, league):
    game = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat", "Dan"], teams=[("Us", ["Ann", "Cat"]), ("Them", ["Bob", "Dan"])], rules=rules.Rules()
    )
    rename_in_admin(admin_client, Player.objects.get(league=league, name="Ann"), "Anne")
    state = selectors.load_game(game)
    assert set(state.sides) == {"Us", "Them"} and state.table.teams[0].players == ("Anne", "Cat")
    services.record_hand(game=game, hand=hand("Anne", 2, "Us", "Them"))
