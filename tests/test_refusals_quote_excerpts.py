"""A refusal quotes at most a short excerpt of what it refused: a value posted, a value or key in a history file.

Each case sends a value thousands of characters long where a short one belongs, and checks the answer says
what is wrong (the refusal is there) while holding no more than an excerpt of the value.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import uuid

import pytest
from django.forms import BaseForm
from django.urls import reverse

import scores
from scores.common.forms import ShortRefusals
from scores.engine import rules
from scores.engine.problems import EXCERPT
from scores.history import document as history_document
from scores.history import services as history_services
from scores.leagues.models import Membership, Player, Role
from scores.nights.models import Round
from scores.people import services
from scores.table import services as table_services
from tests.history_docs import document, dumps, game, hand

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
LONG = "Q" * 5_000  # Refused wherever it is sent; no answer may hold more of it than an excerpt.
CHOICE = "is not one of the available choices"


def assert_refused_with_an_excerpt(text: str, refusal: str) -> None:
    assert refusal in text
    assert "Q" * 20 in text  # An excerpt of the value is quoted...
    assert "Q" * (EXCERPT + 1) not in text  # ...and no more.


def refusals(response) -> str:
    """The refusals on a page, and only they: a page also holds its own address and what was typed in its fields."""
    pattern = r'<div class="(?:invalid-feedback[^"]*|alert alert-danger[^"]*)"[^>]*>(.*?)</div>'
    found = re.findall(pattern, response.content.decode(), re.DOTALL)
    assert found
    return "\n".join(found)


def taps(**fields) -> dict:
    return {
        "pitcher": "Ann",
        "bid": "2",
        "high": "Ann",
        "low": "Bob",
        "jack": "-",
        "game": "-",
        "number": "1",
        "key": str(uuid.uuid4()),
    } | fields


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["no-js", "htmx"])
@pytest.mark.parametrize("field", ["pitcher", "bid", "high", "jack"])
def test_a_tap_that_is_no_button_is_quoted_short_on_the_hand_form(scorer, four_player_game, headers, field):
    response = scorer.post(reverse("scores:hand_create", args=["thursday", four_player_game.pk]), taps(**{field: LONG}), **headers)
    assert_refused_with_an_excerpt(response.content.decode(), CHOICE)


def test_a_tap_that_is_no_button_is_quoted_short_on_the_edit_page(scorer, four_player_game):
    table_services.record_hand(
        game=four_player_game, hand=rules.Hand(pitcher="Ann", bid=2, points={"high": "Ann", "low": "Bob", "jack": None, "game": None})
    )
    url = reverse("scores:hand_edit", args=["thursday", four_player_game.pk, 1])
    response = scorer.post(url, taps(pitcher=LONG) | {"version": str(four_player_game.version)})
    assert_refused_with_an_excerpt(response.content.decode(), CHOICE)


def test_a_synced_hand_with_a_long_value_is_refused_without_it(scorer, four_player_game):
    url = reverse("scores:hand_sync", args=["thursday", four_player_game.pk])
    response = scorer.post(url, json.dumps({"hands": [taps(pitcher=LONG)]}), content_type="application/json")
    assert response.status_code == 400 and "Q" * (EXCERPT + 1) not in response.content.decode()


@pytest.mark.parametrize(
    ("field", "refusal"),
    [("mode", CHOICE), ("target", CHOICE), ("first_dealer", CHOICE), ("going_out", CHOICE), ("players", "is not a valid value")],
)
def test_a_new_game_post_is_quoted_short(owner_client, league, field, refusal):
    ann = Player.objects.create(league=league, name="Ann")
    post = {
        "players": [str(ann.pk)],
        f"seat_{ann.pk}": "1",
        "new_1": "Bob",
        "new_seat_1": "2",
        "mode": "solo",
        "target": "7",
        "first_dealer": "1",
    }
    post[field] = LONG
    response = owner_client.post(reverse("scores:game_new", args=["thursday"]), post)
    assert_refused_with_an_excerpt(response.content.decode(), refusal)


@pytest.mark.parametrize(
    ("name", "query", "refusal"),
    [
        ("league_detail", {"mode": LONG}, CHOICE),
        ("league_detail", {"sort": LONG}, "to sort by"),  # The standings' own words: no field of theirs is typed.
        ("game_list", {"status": LONG}, CHOICE),
        ("game_list", {"going_out": LONG}, CHOICE),
        ("league_detail", {"season": LONG}, CHOICE),
    ],
    ids=["standings mode", "standings sort", "games status", "games house rule", "standings season"],
)
def test_a_query_the_pages_refuse_is_quoted_short(owner_client, league, name, query, refusal):
    response = owner_client.get(reverse(f"scores:{name}", args=["thursday"]), query)
    assert response.status_code == 400
    # The page's own address, the query in it, is in its links and its language switcher: only its refusals are read.
    assert_refused_with_an_excerpt(refusals(response), refusal)


def test_the_league_pages_forms_quote_short(owner_client, league, make_user):
    sam = Membership.objects.get(user=make_user("sam", league, Role.VIEWER))
    role = owner_client.post(reverse("scores:member_role", args=["thursday", sam.pk]), {f"m{sam.pk}-role": LONG}, follow=True)
    assert_refused_with_an_excerpt(role.content.decode(), CHOICE)
    invite = owner_client.post(reverse("scores:invite_new", args=["thursday"]), {"role": "viewer", "days": LONG})
    assert_refused_with_an_excerpt(invite.content.decode(), CHOICE)
    settings = owner_client.post(reverse("scores:league_settings", args=["thursday"]), {"form": "rules", "target": "7", "going_out": LONG})
    assert_refused_with_an_excerpt(settings.content.decode(), CHOICE)


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (lambda doc: doc["games"][0].update({LONG: 1}), "unknown key"),
        (lambda doc: doc["games"][0]["hands"][0].update({"pitcher": LONG}), "the pitcher must be a seated player"),
        (lambda doc: doc["games"][0]["hands"][0].update({"high": [LONG]}), "High must name a seated player"),
        (lambda doc: doc["games"][0].update({"rules": {"going_out": LONG}}), "going_out must be"),
        (lambda doc: doc["games"][0]["hands"][0].update({"bid": LONG}), "bid must be 1-4"),
    ],
    ids=["key", "pitcher", "point", "house rule", "bid"],
)
def test_an_imports_problems_quote_the_files_values_short(league, change, refusal):
    doc = document(game(hands=[hand("Ann", 2, "Ann")]))
    change(doc)
    with pytest.raises(history_document.HistoryError) as caught:
        history_services.import_history(league=league, source=dumps(doc))
    assert_refused_with_an_excerpt("\n".join(str(problem) for problem in caught.value.problems), refusal)


def test_a_long_key_given_twice_is_quoted_short(league):
    source = dumps(document(game(hands=[hand("Ann", 2, "Ann")]))).replace(b'"hands"', f'"{LONG}": 1, "{LONG}": 2, "hands"'.encode())
    with pytest.raises(history_document.HistoryError) as caught:
        history_services.import_history(league=league, source=source)
    assert_refused_with_an_excerpt("\n".join(str(problem) for problem in caught.value.problems), "is given more than once")


def test_every_form_of_the_app_quotes_short():
    names = [info.name for info in pkgutil.walk_packages(scores.__path__, "scores.") if ".forms" in info.name]
    modules = [importlib.import_module(name) for name in names]
    forms = [
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BaseForm) and value.__module__ == module.__name__
    ]
    assert {"scores.nights.forms", "scores.people.forms"} <= {module.__name__ for module in modules}
    assert len(forms) >= 25 and all(issubclass(form, ShortRefusals) for form in forms)


NIGHT = {"name": "Friday", "played_on": "2026-03-06", "mode": "partnership", "solo_size": "4", "leftover": "solo", "rounds": "2"}


@pytest.mark.parametrize(
    ("field", "refusal"), [("players", "is not a valid value"), ("guests", "characters long"), ("mode", CHOICE), ("leftover", CHOICE)]
)
def test_a_new_card_night_post_is_quoted_short(owner_client, league, field, refusal):
    players = [str(services.add_guest(league=league, name=name).pk) for name in ("Ann", "Bob", "Cat", "Dan")]
    post = NIGHT | {"target": "7", "players": players, field: [*players, LONG] if field == "players" else LONG}
    response = owner_client.post(reverse("scores:night_new", args=["thursday"]), post)
    assert response.status_code == 400 and not league.nights.exists()
    assert_refused_with_an_excerpt(refusals(response), refusal)


def test_the_next_round_post_is_quoted_short(owner_client, night_of_four):
    players = Player.objects.filter(league=night_of_four.league)
    assert players.count() == 4
    post = {"number": "2", "unfinished": "on", "players": [*(str(p.pk) for p in players), LONG]}
    response = owner_client.post(reverse("scores:round_new", args=["thursday", night_of_four.pk]), post)
    assert Round.objects.filter(night=night_of_four).count() == 1
    assert_refused_with_an_excerpt(response.content.decode(), "is not a valid value")
