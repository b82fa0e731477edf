"""An archived player leaves every picker that starts something new (the new-game list and its type-ahead, a typed new
name, the card night, its next round) and stays, marked as archived, where their history is shown.

Once the people page said "new games and card nights no longer offer them" while the new-game page still listed
Fay, and a crafted post or her name typed seated her all the same.
"""

from __future__ import annotations

import datetime
import html
import json

import pytest
from django.urls import reverse

from scores.engine import planner, rules
from scores.models import Game, Night, Player, Round
from scores.nights import services as nights_services
from scores.people import services as people_services
from scores.standings import selectors as standings_selectors
from scores.table import services as table_services
from tests.conftest import hand

pytestmark = pytest.mark.django_db

ARCHIVED = "Fay is archived: bring them back on the people page to seat them."
SEVEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Gus", "Hal"]


@pytest.fixture
def fay(league) -> Player:
    for name in SEVEN:
        people_services.add_guest(league=league, name=name)
    fay = people_services.add_guest(league=league, name="Fay")
    people_services.set_archived(player=fay, archived=True)
    return fay


def _ids(league, *names: str) -> list[int]:
    return list(Player.objects.filter(league=league, name__in=names).values_list("pk", flat=True))


def _night_data(**fields) -> dict:
    data = {"name": "Friday", "played_on": "2026-03-06", "mode": "partnership", "solo_size": "4", "leftover": "solo"}
    return data | {"rounds": "3", "target": "7"} | fields


def _finished_game(league) -> Game:
    game = table_services.start_game(league=league, seats=["Ann", "Fay"], rules=rules.Rules())
    for _ in range(2):
        table_services.record_hand(game=game, hand=hand("Fay", 4, "Fay", "Fay", "Fay", "Fay"))
    return game


def test_the_new_game_page_does_not_offer_an_archived_player(owner_client, league, fay):
    response = owner_client.get(reverse("scores:game_new", args=[league.slug]))

    assert response.status_code == 200
    assert 'data-name="Gus"' in response.text and '<option value="Gus">' in response.text
    assert 'data-name="Fay"' not in response.text and '<option value="Fay">' not in response.text
    assert "Seat for Fay" not in response.text


def test_a_crafted_new_game_with_an_archived_player_is_refused_by_name(owner_client, league, fay):
    data = {"mode": "solo", "target": "7", "first_dealer": "1", "players": _ids(league, "Ann", "Fay")}

    response = owner_client.post(reverse("scores:game_new", args=[league.slug]), data)

    assert response.status_code == 200 and ARCHIVED in html.unescape(response.text)  # The form again, saying why.
    assert not Game.objects.exists()


def test_an_archived_players_name_typed_as_a_new_player_is_refused(owner_client, league, fay):
    data = {"mode": "solo", "target": "7", "first_dealer": "1", "players": _ids(league, "Ann"), "new_1": " fay "}

    response = owner_client.post(reverse("scores:game_new", args=[league.slug]), data)

    assert response.context["form"].errors["new_1"] == [ARCHIVED]
    assert not Game.objects.exists()


def test_a_card_night_refuses_an_archived_player_ticked_or_typed(owner_client, league, fay):
    url = reverse("scores:night_new", args=[league.slug])

    ticked = owner_client.post(url, _night_data(players=_ids(league, "Ann", "Bob", "Cat", "Fay")))
    typed = owner_client.post(url, _night_data(players=_ids(league, "Ann", "Bob", "Cat"), guests="FAY"))

    assert ticked.status_code == typed.status_code == 400
    assert ARCHIVED in html.unescape(ticked.text) and ARCHIVED in html.unescape(typed.text)
    assert not Night.objects.exists()


def test_a_next_round_refuses_a_player_archived_before_the_night_but_keeps_one_already_present(owner_client, league, owner, fay):
    present = list(Player.objects.filter(league=league, name__in=[*SEVEN[:4], "Hal"]))
    night = nights_services.start_night(
        league=league,
        name="Friday",
        played_on=datetime.date(2026, 3, 6),
        seating=planner.Seating(),
        rounds=3,
        game_rules=rules.Rules(),
        players=present,
        by=owner,
    )
    url = reverse("scores:round_new", args=[league.slug, night.pk])

    refused = owner_client.post(url, {"number": 2, "players": [p.pk for p in present] + [fay.pk], "unfinished": "on"})
    assert refused.status_code == 400 and ARCHIVED in html.unescape(refused.text)
    assert Round.objects.filter(night=night).count() == 1

    hal = present[-1]
    people_services.set_archived(player=hal, archived=True)  # Archived during the night: still at the table.
    page = owner_client.get(night.get_absolute_url())
    assert page.context["round_form"].fields["players"].queryset.filter(pk=hal.pk).exists()
    assert owner_client.post(url, {"number": 2, "players": [p.pk for p in present], "unfinished": "on"}).status_code == 302


def test_an_archived_player_stays_in_the_history_marked_as_archived(owner_client, league, fay):
    game = _finished_game(league)

    standings = owner_client.get(reverse("scores:league_detail", args=[league.slug])).text
    row = standings[standings.index(">Fay</a>") :]
    assert row.index('<span class="badge bg-secondary">archived</span>') < row.index("</th>")
    assert [row.name for row in standings_selectors.standings(league) if row.archived] == ["Fay"]
    assert "archived" in owner_client.get(reverse("scores:player_detail", args=[league.slug, fay.pk])).text
    assert "Fay" in owner_client.get(game.get_absolute_url()).text
    exported = json.loads(b"".join(owner_client.get(reverse("scores:league_export_json", args=[league.slug])).streaming_content))
    assert exported["games"][0]["seats"] == ["Ann", "Fay"]
    people = owner_client.get(reverse("scores:people", args=[league.slug])).text
    assert "Bring Fay back" in people
