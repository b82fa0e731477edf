"""Every name a person types, through every form that takes one, is stored in the one normal form player names have
(``scores.names.clean``): control, zero-width and direction characters out, inner spaces folded.

Once a league named "\\u202e\\u200b" was stored and showed as nothing, and "Evil \\u202eSEMAG" showed reversed: league,
season and card-night names kept what player names lost. A name that is nothing once clean is refused, not stored.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.urls import reverse

from scores.engine import planner, rules
from scores.models import Game, League, Night, Player, Round, Season, Side
from scores.nights import services as nights_services
from scores.people import services as people_services
from scores.standings import services as standings_services
from tests.history_docs import document, dumps, game

pytestmark = pytest.mark.django_db

INVISIBLE = "\u202e\u200b"  # A right-to-left override and a zero-width space: it shows as nothing.
NOTHING = "The name shows as nothing: it has only invisible characters."
FOUR = ["Ann", "Bob", "Cat", "Dan"]
NEW = ["new_1", "new_2", "new_3", "new_4"]  # The new-game form's first rows for new players.
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
# Each kind of character a clean name loses, and inner runs of spaces, which fold into one.
JUNK = {
    "control": "\x07",
    "zero-width": "\u200b",
    "direction override": "\u202e",
    "direction isolate": "\u2066",
    "direction mark": "\u200f",
    "inner spaces": " \t  ",
}


@dataclass(frozen=True)
class Way:
    """One form that takes a typed name: what is there before (``setup``), how the name is posted, which names of
    its kind are stored, and how it answers a name refused (the status; the page that says why is the one it
    answers or redirects to)."""

    post: Callable  # (client, league, name, made) -> response; made: what setup returned.
    stored: Callable[[League], set[str]]
    setup: Callable = lambda league, owner: None
    refused_status: int = 400


def _league_names(league: League) -> set[str]:
    return set(League.objects.values_list("name", flat=True))


def _season_names(league: League) -> set[str]:
    return set(Season.objects.filter(league=league).values_list("name", flat=True))


def _player_names(league: League) -> set[str]:
    return set(Player.objects.filter(league=league).values_list("name", flat=True))


def _night_names(league: League) -> set[str]:
    return set(Night.objects.filter(league=league).values_list("name", flat=True))


def _team_names(league: League) -> set[str]:
    return set(Side.objects.filter(game__league=league).values_list("name", flat=True))


def _night_data(**fields) -> dict:
    data = {"name": "Friday", "played_on": "2026-03-06", "mode": "partnership", "solo_size": "4", "leftover": "solo"}
    return data | {"rounds": "3", "target": "7", "guests": "Ann\nBob\nCat\nDan"} | fields


def _new_game_data(**fields) -> dict:
    return {"mode": "solo", "target": "7", "first_dealer": "1", "team1": "Us", "team2": "Them"} | fields


def _season(league: League, owner) -> Season:
    return standings_services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 1), by=owner)


def _night(league: League, owner) -> Night:
    return nights_services.start_night(
        league=league,
        name="Friday",
        played_on=datetime.date(2026, 3, 6),
        seating=planner.Seating(),
        rounds=3,
        game_rules=rules.Rules(),
        players=[people_services.add_guest(league=league, name=name) for name in EIGHT],
        by=owner,
    )


def _rename_season(client, league, name, season):
    return client.post(reverse("scores:season_rename", args=[league.slug, season.pk]), {f"s{season.pk}-name": name}, follow=True)


def _round_guest(client, league, name, night):
    players = list(Player.objects.filter(league=league).values_list("pk", flat=True))
    data = {"number": 2, "players": players, "guests": name, "unfinished": "on"}
    return client.post(reverse("scores:round_new", args=[league.slug, night.pk]), data, follow=True)


def _new_league(client, league, name, made):
    return client.post(reverse("scores:league_new"), {"name": name}, follow=True)


def _ann(league: League, owner) -> Player:
    return people_services.add_guest(league=league, name="Ann")


def _posting(url: str, data: Callable[[str], dict]) -> Callable:
    """Posts the name to the page ``url`` of the league (and of what the setup made), in the fields ``data`` makes."""

    def post(client, league, name, made):
        args = [league.slug, made.pk] if made is not None else [league.slug]
        return client.post(reverse(url, args=args), data(name), follow=True)

    return post


WAYS = {
    "new league": Way(_new_league, _league_names),
    "league's new name": Way(_posting("scores:league_settings", lambda name: {"name": name}), _league_names),
    "new season": Way(_posting("scores:season_list", lambda name: {"name": name, "starts_on": "2026-03-01"}), _season_names),
    # Renamed in the seasons list, each season with its own small form: a refusal is said on the list.
    "season's new name": Way(_rename_season, _season_names, setup=_season, refused_status=200),
    "new card night": Way(_posting("scores:night_new", lambda name: _night_data(name=name)), _night_names),
    "card night's guest": Way(_posting("scores:night_new", lambda name: _night_data(guests=f"Ann\nBob\nCat\n{name}")), _player_names),
    "next round's guest": Way(_round_guest, _player_names, setup=_night),
    "guest": Way(_posting("scores:guest_new", lambda name: {"name": name}), _player_names),
    "player's new name": Way(_posting("scores:player_rename", lambda name: {"name": name}), _player_names, setup=_ann),
    # The new-game page answers a refusal with the form again, as it always has.
    "new game's new player": Way(
        _posting("scores:game_new", lambda name: _new_game_data(new_1=name, new_2="Bob")), _player_names, refused_status=200
    ),
    "team": Way(
        _posting("scores:game_new", lambda name: _new_game_data(mode="2x2", **dict(zip(NEW, FOUR, strict=True)), team1=name)),
        _team_names,
        refused_status=200,
    ),
}


@pytest.mark.parametrize("junk", JUNK.values(), ids=JUNK.keys())
@pytest.mark.parametrize("way", WAYS.values(), ids=WAYS.keys())
def test_a_typed_name_is_stored_clean(owner_client, league, owner, way, junk):
    made = way.setup(league, owner)
    before = way.stored(league)

    response = way.post(owner_client, league, f" Evil {junk}Games{junk} ", made)

    assert response.redirect_chain and response.status_code == 200
    assert "Evil Games" in way.stored(league) - before


@pytest.mark.parametrize("way", WAYS.values(), ids=WAYS.keys())
def test_a_name_that_is_nothing_once_clean_is_refused_and_nothing_is_stored(owner_client, league, owner, way):
    made = way.setup(league, owner)
    before = (way.stored(league), Night.objects.count(), Round.objects.count(), Game.objects.count(), Season.objects.count())

    response = way.post(owner_client, league, INVISIBLE, made)

    assert response.status_code == way.refused_status and NOTHING in response.text
    assert (way.stored(league), Night.objects.count(), Round.objects.count(), Game.objects.count(), Season.objects.count()) == before
    assert League.objects.get().name == "Thursday Pitch"


def test_a_name_reversed_by_a_direction_character_is_stored_as_typed_left_to_right(owner_client):
    owner_client.post(reverse("scores:league_new"), {"name": "Evil \u202eSEMAG"})

    assert League.objects.filter(name="Evil SEMAG").exists()


def test_a_league_made_by_the_import_command_has_its_files_name_clean(manage, tmp_path):
    path = tmp_path / "history.json"
    path.write_bytes(dumps(document(game("kitchen"))).replace(b'"format"', b'"league": {"name": "Evil \\u202eGames\\u200b"}, "format"'))

    assert manage("import_history", str(path), "--league", "evil") == 0

    assert League.objects.get(slug="evil").name == "Evil Games"
