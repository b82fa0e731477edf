"""A game's season in the history file: written when the export is asked for it, read on import, where the league is
given the seasons the file names and each game goes into its own; a file without seasons imports as before."""

from __future__ import annotations

import csv
import datetime
import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scores.engine import rules
from scores.history import document as history_document
from scores.history import export, services
from scores.leagues.models import League, Player
from scores.standings import services as standings_services
from scores.standings.models import Season, SeasonTotal
from scores.standings.selectors import seasons
from scores.standings.selectors.standings import standings
from scores.standings.services.totals import Seasons
from scores.table import services as table_services
from scores.table.models import Game
from tests import small_league as leagues
from tests.history_docs import document, dumps, game, hand, v2_game
from tests.totals import kept, recount

pytestmark = pytest.mark.django_db


@pytest.fixture
def seasoned(league, owner) -> League:
    """g0 (1 Dec 2025, no hands) before the first season, g1 (10 Jan) and g2 (1 Feb) in Winter, g3 (2 Feb, going on) in Spring."""
    table_services.start_game(league=league, seats=["Eve", "Fay"], code="g0", played_on=datetime.date(2025, 12, 1), rules=rules.Rules())
    leagues.build(league)
    standings_services.start_season(league=league, name="Winter", starts_on=datetime.date(2026, 1, 5), by=owner)
    standings_services.start_season(league=league, name="Spring 2026", starts_on=datetime.date(2026, 2, 2), by=owner)
    return league


def exported(league: League, **options) -> dict:
    return json.loads("".join(export.export_json(league.games.all(), league_name=league.name, **options)))


def placed(league: League) -> dict[str, str | None]:
    """Each game's season, by the league's seasons and the game's day."""
    of = Seasons(league.pk)
    names = dict(Season.objects.filter(league=league).values_list("pk", "name"))
    return {code: names.get(of.of(day)) for code, day in Game.objects.filter(league=league).values_list("code", "played_on")}


def test_the_export_writes_each_games_season_only_when_asked(seasoned):
    plain = exported(seasoned)
    assert all("season" not in g for g in plain["games"])  # The exchange format names no season: a strict reader takes it.
    games = {g["id"]: g for g in exported(seasoned, seasons=True)["games"]}
    assert "season" not in games["g0"]
    assert games["g1"]["season"] == games["g2"]["season"] == {"name": "Winter", "starts_on": "2026-01-05"}
    assert games["g3"]["season"] == {"name": "Spring 2026", "starts_on": "2026-02-02"}
    assert list(games["g1"]) == ["id", "played_on", "season", "rules", "seats", "hands", "result"]
    assert {key: value for key, value in games["g1"].items() if key != "season"} == {g["id"]: g for g in plain["games"]}["g1"]


def test_the_csv_games_file_gives_each_games_season_when_asked(seasoned):
    def games_csv(**options) -> list[dict]:
        archive = zipfile.ZipFile(io.BytesIO(b"".join(export.export_csv_zip(seasoned.games.all(), **options))))
        return list(csv.DictReader(io.StringIO(archive.read("games.csv").decode("utf-8-sig"))))

    assert "season" not in games_csv()[0]
    rows = {row["game_id"]: (row["season"], row["season_starts_on"]) for row in games_csv(seasons=True)}
    assert rows == {"g0": ("", ""), "g1": ("Winter", "2026-01-05"), "g2": ("Winter", "2026-01-05"), "g3": ("Spring 2026", "2026-02-02")}


def test_a_round_trip_into_an_empty_league_keeps_the_seasons_and_each_games_season(seasoned):
    source = json.dumps(exported(seasoned, seasons=True))
    moved = League.objects.create(name="Moved", slug="moved")
    services.import_history(league=moved, source=source)
    assert list(Season.objects.filter(league=moved).order_by("starts_on").values_list("name", "starts_on")) == [
        ("Winter", datetime.date(2026, 1, 5)),
        ("Spring 2026", datetime.date(2026, 2, 2)),
    ]
    assert placed(moved) == placed(seasoned) == {"g0": None, "g1": "Winter", "g2": "Winter", "g3": "Spring 2026"}
    assert kept(moved) and len(kept(moved)) == len(recount(moved)) and kept(moved) == recount(moved)

    def figures(league: League, season: Season | None, mode: str = "") -> list[tuple]:
        return [(r.name, r.games, r.wins, r.points, r.streak) for r in standings(league, season=season, mode=mode, sort="name")]

    for old, new in zip(seasons(seasoned), seasons(moved), strict=True):
        assert (old.name, old.starts_on) == (new.name, new.starts_on)
        for mode in ("", "solo", "partnership"):
            assert figures(moved, new, mode) == figures(seasoned, old, mode)
    assert figures(moved, None) == figures(seasoned, None) != []
    services.import_history(league=moved, source=source)  # Again: every game skipped, no season made twice.
    assert Season.objects.filter(league=moved).count() == 2


def test_a_file_without_seasons_imports_as_before_its_games_placed_by_day_in_the_leagues_seasons(seasoned):
    target = League.objects.create(name="Target", slug="target")
    Season.objects.create(league=target, name="Late", starts_on=datetime.date(2026, 2, 1))  # A league without games yet.
    services.import_history(league=target, source=json.dumps(exported(seasoned)))
    assert list(Season.objects.filter(league=target).values_list("name", flat=True)) == ["Late"]
    assert placed(target) == {"g0": None, "g1": None, "g2": "Late", "g3": "Late"}
    assert kept(target) == recount(target)


def test_a_version_1_file_imports_as_before_and_may_not_name_a_season(league):
    services.import_history(league=league, source=dumps(document(game("old", hands=[hand("Ann", 2, "Ann")]))))
    assert not Season.objects.exists() and Game.objects.filter(code="old").exists()
    problems = _problems(league, document(game("v1", season={"name": "Spring", "starts_on": "2026-03-01"})))
    assert problems == ['game "v1": unknown key "season" (a game\'s season came with version 2)']


SPRING = {"name": "Spring 2026", "starts_on": "2026-03-01"}


def v2(game_id: str, played_on: str = "2026-03-05", season: object = SPRING, **extra) -> dict:
    won = [hand("Ann", 4, "Ann", "Ann", "Ann", "Ann")] * 2  # Ann goes out: a finished game, counted in its season.
    found = v2_game(game(game_id, hands=won, played_on=played_on, **extra))
    return found | {"season": season} if season is not None else found


def v2_document(*games: dict) -> dict:
    return document(*games) | {"version": 2}


def _problems(league: League, doc: dict) -> list[str]:
    with pytest.raises(history_document.HistoryError) as caught:
        services.import_history(league=league, source=dumps(doc))
    assert not (Game.objects.filter(league=league).exclude(code="old").exists() or Season.objects.filter(league=league).exists())
    return [str(p) for p in caught.value.problems]


def test_the_seasons_named_are_made_and_the_games_placed_in_them(league):
    winter = {"name": "Winter", "starts_on": "2026-01-01"}
    doc = v2_document(v2("w1", "2026-01-03", winter), v2("s1"), v2("s2", "2026-04-01"), v2("before", "2025-12-31", None))
    services.import_history(league=league, source=dumps(doc))
    assert placed(league) == {"w1": "Winter", "s1": "Spring 2026", "s2": "Spring 2026", "before": None}
    assert {(r[1], r[3]) for r in kept(league)} == {
        (None, 1),
        (Season.objects.get(name="Winter").pk, 1),
        (Season.objects.get(name="Spring 2026").pk, 2),
    }


def test_a_seasons_name_in_a_file_is_stored_clean_as_a_typed_one_is(league):
    doc = v2_document(v2("x", season={**SPRING, "name": " Spring\u202e  \u200b2026\x07 "}), v2("y"))
    services.import_history(league=league, source=dumps(doc))
    assert placed(league) == {"x": "Spring 2026", "y": "Spring 2026"}


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        ([v2("x", season="Spring")], 'game "x", season: a game\'s season must be an object {...}, got "Spring"'),
        ([v2("x", season={"name": "Spring"})], 'game "x", season.starts_on: this key is required'),
        (
            [v2("x", season={**SPRING, "ends_on": "2026-06-01"})],
            'game "x", season: unknown key "ends_on" (a game\'s season has only name, starts_on)',
        ),
        (
            [v2("x", season={**SPRING, "starts_on": "2026-02-30"})],
            'game "x", season.starts_on: must be a date YYYY-MM-DD, got "2026-02-30"',
        ),
        ([v2("x", season={**SPRING, "name": " "})], 'game "x", season.name: must be a season\'s name, got " "'),
        ([v2("x", season={**SPRING, "name": "\u202e\u200b"})], 'game "x", season.name: must be a season\'s name, got "\u202e\u200b"'),
        ([v2("x", season={**SPRING, "name": "S" * 61})], 'game "x", season.name: "S…is too long: at most 60 characters'),
        ([v2("x", "2026-02-28")], 'game "x", season: played on 2026-02-28, before its season "Spring 2026" starts on 2026-03-01'),
        (
            [v2("x"), v2("y", season={**SPRING, "starts_on": "2026-03-02"})],
            'game "y", season: season "Spring 2026" starts on 2026-03-01 in game "x", not on 2026-03-02',
        ),
        (
            [v2("x"), v2("y", season={**SPRING, "name": "Easter"})],
            'game "y", season: seasons "Spring 2026" and "Easter" both start on 2026-03-01',
        ),
        (
            [v2("x", "2026-06-02"), v2("y", "2026-06-01", {"name": "Summer", "starts_on": "2026-06-01"})],
            'game "x", season: played on 2026-06-02, which is in season "Summer", not in "Spring 2026"',
        ),
    ],
)
def test_bad_season_data_is_refused_saying_where_and_nothing_is_stored(league, games, expected):
    problems = _problems(league, v2_document(*games))
    assert any(p.startswith(expected.split("…")[0]) and p.endswith(expected.split("…")[-1]) for p in problems), problems
    assert not Player.objects.exists() and not SeasonTotal.objects.exists()


def test_a_game_in_a_season_needs_its_day(league):
    doc = v2_document(v2("x"))
    del doc["games"][0]["played_on"]
    assert _problems(league, doc) == ['game "x", season: a game in a season needs the day it was played (played_on)']


@pytest.mark.parametrize(
    ("season", "expected"),
    [
        ({"name": "spring 2026", "starts_on": "2026-03-01"}, None),  # The league's own season: the name compared without case.
        ({"name": "Spring 2026", "starts_on": "2026-03-02"}, 'season "Spring 2026" from 2026-03-02 is not the league\'s season "Spring" '),
        (
            {"name": "Easter", "starts_on": "2026-03-01"},
            'season "Easter" from 2026-03-01 is not the league\'s season "Spring 2026" from 2026-03-01',
        ),
        (
            {"name": "Late winter", "starts_on": "2026-02-01"},
            'would start on 2026-02-01, not after the league\'s latest season "Spring 2026" from 2026-03-01',
        ),
    ],
)
def test_the_files_seasons_must_agree_with_the_leagues(league, owner, season, expected):
    standings_services.start_season(league=league, name="Winter", starts_on=datetime.date(2026, 1, 1), by=owner)
    standings_services.start_season(league=league, name="Spring 2026", starts_on=datetime.date(2026, 3, 1), by=owner)
    source = dumps(v2_document(v2("x", season=season)))
    if expected is None:
        services.import_history(league=league, source=source)
        assert placed(league) == {"x": "Spring 2026"} and Season.objects.filter(league=league).count() == 2
        return
    with pytest.raises(history_document.HistoryError) as caught:
        services.import_history(league=league, source=source)
    assert str(caught.value.problems[0]).startswith('game "x", season: ')
    assert expected.replace('"Spring" ', '"Spring 2026" from 2026-03-01') in str(caught.value.problems[0])
    assert not Game.objects.exists() and Season.objects.filter(league=league).count() == 2


def test_a_season_the_file_names_after_the_leagues_takes_the_leagues_later_games(league, owner):
    services.import_history(league=league, source=dumps(v2_document(v2("old", "2026-05-01", None))))
    services.import_history(league=league, source=dumps(v2_document(v2("new"))))
    assert placed(league) == {"old": "Spring 2026", "new": "Spring 2026"}
    assert kept(league) == recount(league)


def test_on_the_web_a_league_with_seasons_downloads_them_and_an_upload_keeps_them(client, seasoned, owner, make_user):
    client.force_login(owner)
    page = client.get(reverse("scores:league_detail", args=[seasoned.slug]))
    address = reverse("scores:league_export_json", args=[seasoned.slug])
    assert f'href="{address}?seasons=yes" download>Download JSON with seasons</a>' in page.text
    plain = json.loads(b"".join(client.get(address).streaming_content))
    assert all("season" not in g for g in plain["games"])
    source = b"".join(client.get(address, {"seasons": "yes"}).streaming_content)
    assert {g["id"]: g.get("season", {}).get("name") for g in json.loads(source)["games"]} == placed(seasoned)

    moved = League.objects.create(name="Moved", slug="moved")
    client.force_login(make_user("mo", moved, "owner"))
    response = client.post(reverse("scores:league_import", args=[moved.slug]), {"file": SimpleUploadedFile("h.json", source)})
    assert response.status_code == 200 and "Imported 4 games." in response.text
    assert placed(moved) == placed(seasoned)
    assert "Download JSON with seasons" in client.get(reverse("scores:league_detail", args=[moved.slug])).text


def test_a_league_without_seasons_offers_no_download_with_seasons(client, league, owner):
    client.force_login(owner)
    assert "with seasons" not in client.get(reverse("scores:league_detail", args=[league.slug])).text
