"""Game history on the web: download buttons for members, the import form for owners."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scores.history import services
from scores.leagues.models import Player, Role
from scores.table.models import Game, Hand
from tests.history_docs import SPEC_HAND, document, dumps, game, hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def kitchen(league):
    services.import_history(league=league, source=dumps(document(game("kitchen", hands=[SPEC_HAND]))))
    return Game.objects.get(code="kitchen")


def login(client, user):
    client.force_login(user)
    return client


def upload(client, league, content: bytes, name: str = "history.json"):
    return client.post(reverse("scores:league_import", args=[league.slug]), {"file": SimpleUploadedFile(name, content)})


def streamed(response) -> bytes:
    return b"".join(response.streaming_content)


# Downloads ------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", [Role.VIEWER, Role.SCORER, Role.OWNER])
def test_every_member_sees_the_download_buttons_on_the_league_and_game_pages(client, make_user, league, kitchen, role):
    login(client, make_user("member", league, role))

    league_page = client.get(league.get_absolute_url())
    game_page = client.get(kitchen.get_absolute_url())

    for page, json_url, csv_url in [
        (league_page, reverse("scores:league_export_json", args=[league.slug]), reverse("scores:league_export_csv", args=[league.slug])),
        (
            game_page,
            reverse("scores:game_export_json", args=[league.slug, kitchen.pk]),
            reverse("scores:game_export_csv", args=[league.slug, kitchen.pk]),
        ),
    ]:
        assert f'href="{json_url}" download>Download JSON</a>' in page.text
        assert f'href="{csv_url}" download>Download CSV</a>' in page.text


def test_only_owners_see_the_import_button(client, make_user, league):
    import_button = f'href="{reverse("scores:league_import", args=[league.slug])}">Import games</a>'
    assert import_button not in login(client, make_user("scorer", league, Role.SCORER)).get(league.get_absolute_url()).text
    assert import_button in login(client, make_user("owner", league, Role.OWNER)).get(league.get_absolute_url()).text


def test_a_viewer_downloads_the_league_as_json(client, make_user, league, kitchen):
    login(client, make_user("viewer", league, Role.VIEWER))

    response = client.get(reverse("scores:league_export_json", args=[league.slug]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="thursday-history.json"'
    doc = json.loads(streamed(response))
    assert [g["id"] for g in doc["games"]] == ["kitchen"] and doc["games"][0]["hands"][0]["totals"]["Ann"] == -3


def test_a_viewer_downloads_the_league_as_a_zip_of_csv_files(client, make_user, league, kitchen):
    login(client, make_user("viewer", league, Role.VIEWER))

    response = client.get(reverse("scores:league_export_csv", args=[league.slug]))

    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="thursday-history.zip"'
    with zipfile.ZipFile(io.BytesIO(streamed(response))) as archive:
        assert archive.namelist() == ["games.csv", "hands.csv", "scores.csv", "standings.csv"]
        assert archive.read("hands.csv").decode("utf-8-sig").splitlines()[1].startswith("kitchen,2026-11-27,1,Ann,Ann,3,")


def test_a_game_downloads_alone(client, make_user, league, kitchen):
    services.import_history(league=league, source=dumps(document(game("garage"))))
    login(client, make_user("viewer", league, Role.VIEWER))

    response = client.get(reverse("scores:game_export_json", args=[league.slug, kitchen.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="thursday-kitchen.json"'
    assert [g["id"] for g in json.loads(streamed(response))["games"]] == ["kitchen"]

    response = client.get(reverse("scores:game_export_csv", args=[league.slug, kitchen.pk]))
    with zipfile.ZipFile(io.BytesIO(streamed(response))) as archive:
        assert archive.namelist() == ["games.csv", "hands.csv", "scores.csv"]


@pytest.mark.parametrize("name", ["league_export_json", "league_export_csv", "league_import"])
def test_league_history_pages_are_404_for_non_members(client, make_user, league, name):
    login(client, make_user("stranger"))
    assert client.get(reverse(f"scores:{name}", args=[league.slug])).status_code == 404


@pytest.mark.parametrize("name", ["game_export_json", "game_export_csv"])
def test_game_downloads_are_404_for_non_members_and_for_other_leagues_games(client, make_user, league, kitchen, name):
    login(client, make_user("stranger"))
    assert client.get(reverse(f"scores:{name}", args=[league.slug, kitchen.pk])).status_code == 404
    other = make_user("other-owner").leagues.create(name="Other", slug="other")
    login(client, make_user("member-elsewhere", other, Role.OWNER))
    assert client.get(reverse(f"scores:{name}", args=["other", kitchen.pk])).status_code == 404


def test_downloads_need_a_login(client, league):
    response = client.get(reverse("scores:league_export_json", args=[league.slug]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_download_queries_do_not_grow_with_games(client, make_user, league, django_assert_num_queries):
    login(client, make_user("viewer", league, Role.VIEWER))
    url = reverse("scores:league_export_json", args=[league.slug])
    counts = []
    for games in (1, 10):
        Game.objects.all().delete()
        played = [hand("Ann", 1, "Ann", "Bob"), hand("Bob", 1, "Bob", "Cat"), hand("Cat", 2, "Cat", "Ann")]
        services.import_history(league=league, source=dumps(document(*(game(f"g{i}", hands=played) for i in range(games)))))
        with django_assert_num_queries(3 + 5) as captured:  # session, user, membership; then the export's five
            assert len(json.loads(streamed(client.get(url)))["games"]) == games
        counts.append(len(captured))
    assert counts[0] == counts[1]


# Import ---------------------------------------------------------------------------------------


def test_a_viewer_or_scorer_cannot_import(client, make_user, league):
    for role in (Role.VIEWER, Role.SCORER):
        login(client, make_user(f"user-{role}", league, role))
        assert client.get(reverse("scores:league_import", args=[league.slug])).status_code == 404
        assert upload(client, league, dumps(document(game()))).status_code == 404
    assert not Game.objects.exists()


def test_the_owner_imports_a_file_and_sees_what_was_imported_and_skipped(client, owner, league):
    login(client, owner)
    page = client.get(reverse("scores:league_import", args=[league.slug]))
    assert "History file (JSON)" in page.text and ">Import</button>" in page.text

    response = upload(client, league, dumps(document(game("kitchen", hands=[SPEC_HAND]), game("garage"))))

    assert response.status_code == 200
    assert "Imported 2 games." in response.text and "<li>kitchen</li>" in response.text
    assert Hand.objects.filter(game__code="kitchen").count() == 1

    again = upload(client, league, dumps(document(game("garage"), game("shed"))))
    assert "Imported 1 game." in again.text and "<li>shed</li>" in again.text
    assert "Skipped 1 game the league already has." in again.text and "<li>garage</li>" in again.text


def test_an_invalid_file_shows_every_problem_and_stores_nothing(client, owner, league):
    login(client, owner)
    doc = document(game("a", hands=[hand("Zoe", 5, "Ann")]), game("b", seats=["Ann"]))

    response = upload(client, league, dumps(doc))

    assert response.status_code == 400
    assert "Nothing was imported: the file has 3 problems." in response.text
    for problem in [
        "game &quot;a&quot;, hand 1, pitcher: the pitcher must be a seated player, got &#x27;Zoe&#x27;",
        "game &quot;a&quot;, hand 1, bid: bid must be 1-4, got 5",
        "game &quot;b&quot;, seats: a game needs 2 to 7 players, got 1",
    ]:
        assert f"<li>{problem}</li>" in response.text
    assert not Game.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "The submitted file is empty."),
        (b"\xff\xfe\x00{", "the file is not UTF-8 text: byte 1 cannot be read"),
        (b"name,bid\nAnn,3\n", "the file is not valid JSON: Expecting value (line 1, column 1)"),
        (b'{"format": "pitch-history", "version": 1, "games": [', "the file is not valid JSON: Expecting value (line 1, column 53)"),
    ],
    ids=["empty", "not utf-8", "csv", "cut short"],
)
def test_a_file_that_is_not_a_history_document_gets_a_clear_message(client, owner, league, content, message):
    login(client, owner)
    response = upload(client, league, content)
    assert response.status_code == 400
    assert message in response.text
    assert not Game.objects.exists()


def test_a_huge_upload_is_refused_before_it_is_read(client, owner, league, settings):
    settings.IMPORT_MAX_UPLOAD_SIZE = 1000
    login(client, owner)

    response = upload(client, league, b" " * 1001)

    assert response.status_code == 400
    assert "The file is larger than the limit of 1000\xa0bytes." in response.text
    assert not Game.objects.exists()


def test_the_upload_limit_is_ten_megabytes_by_default(client, owner, league):
    login(client, owner)
    response = upload(client, league, b" " * (10 * 1024 * 1024 + 1))
    assert "the limit of 10.0\xa0MB." in response.text


def test_posting_without_a_file_says_the_file_is_required(client, owner, league):
    login(client, owner)
    response = client.post(reverse("scores:league_import", args=[league.slug]))
    assert response.status_code == 400 and "This field is required." in response.text
