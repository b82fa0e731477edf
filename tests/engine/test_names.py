"""Names as people type them: one normal form everywhere a player or team name comes in, and text that is not text refused.

Once "Ann" and "Ann" with a zero-width space were two players in one game; a name too long for the
database was cut without a word; a name that matched a league player in another spelling became that
player silently; and a lone UTF-16 surrogate in an import file gave a server error.
"""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scores.engine import names
from scores.history import document as history_document
from scores.history import export as history_export
from scores.history import services
from scores.leagues import services as leagues_services
from scores.leagues.models import League, Player
from scores.table.forms.games import NewGameForm
from scores.table.models import Game, Seat
from tests.history_docs import SPEC_HAND, document, dumps, game, hand

ZWSP = "\u200b"
FULL_WIDTH_ANN = "\uff21\uff4e\uff4e"  # "Ann" in full-width letters.
# A JSON file may write half of a UTF-16 pair on its own: json reads it as a str no database or page can hold.
LONE = '"Ann\\ud800"'


def surrogate_file(where: str) -> bytes:
    """A valid one-game document whose ``where`` (seat, team, id, pitcher) holds a lone surrogate."""
    doc = document(
        game(
            "kitchen",
            hands=[SPEC_HAND],
            rules={"teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}]},
        )
    )
    text = dumps(doc).decode()
    replacements = {
        "seat": ('"seats": ["Ann"', '"seats": [' + LONE),
        "team": ('"name": "Us"', '"name": "Us\\udc00"'),
        "id": ('"id": "kitchen"', '"id": "kitchen\\ud800"'),
        "pitcher": ('"pitcher": "Ann"', '"pitcher": ' + LONE),
    }
    old, new = replacements[where]
    assert old in text
    return text.replace(old, new, 1).encode()


# The one function -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "clean"),
    [
        ("Ann", "Ann"),
        (f"Ann{ZWSP}", "Ann"),
        ("\ufeffAnn\u200d", "Ann"),  # Byte-order mark, zero-width joiner.
        ("  Mary \t  Jo\n", "Mary Jo"),
        ("Mary\u00a0Jo", "Mary Jo"),  # No-break space.
        (FULL_WIDTH_ANN, "Ann"),  # Full-width letters (NFKC).
        ("Ann\x07", "Ann"),  # A control character.
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zoë"),  # A combining diaeresis composes.
    ],
)
def test_a_name_is_normalised_once_for_every_path(typed, clean):
    assert names.clean(typed) == clean


def test_names_compare_without_case_after_normalising():
    assert names.key(f" ann{ZWSP} ") == names.key("ANN") == names.key(FULL_WIDTH_ANN)
    assert names.key("Ann") != names.key("Anne")


def test_a_lone_surrogate_is_found():
    assert names.has_surrogate("Ann\ud800") and not names.has_surrogate("Ann 🂡")


# New game ---------------------------------------------------------------------------------------


def new_game_data(**overrides) -> dict:
    data = {"mode": "solo", "target": "7", "first_dealer": "1", "team1": "Team 1", "team2": "Team 2"}
    data.update(overrides)
    return data


@pytest.mark.django_db
def test_a_zero_width_space_does_not_make_a_second_ann(owner_client, league):
    response = owner_client.post(
        reverse("scores:game_new", args=[league.slug]), new_game_data(new_1="Ann", new_2=f"Ann{ZWSP}", new_3="Bob")
    )

    assert response.status_code == 200  # The form again, with the problem.
    assert "is seated twice" in response.text
    assert not Game.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_a_new_game_stores_the_normal_form_of_the_names(owner_client, league):
    response = owner_client.post(
        reverse("scores:game_new", args=[league.slug]), new_game_data(new_1=" Mary \t Jo ", new_2=f"Bob{ZWSP}", mode="solo")
    )

    assert response.status_code == 302
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Bob", "Mary Jo"]


@pytest.mark.django_db
def test_a_new_name_too_long_is_refused_on_its_field_not_cut(owner_client, league):
    long_name = "A" * 41
    response = owner_client.post(reverse("scores:game_new", args=[league.slug]), new_game_data(new_1=long_name, new_2="Bob"))

    assert response.status_code == 200
    assert response.context["form"].errors["new_1"] == ["The name is 41 characters long; at most 40 fit."]
    assert 'maxlength="40"' not in response.text  # The browser would cut a pasted name without a word.
    assert not Game.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_a_team_name_too_long_is_refused_on_its_field(league):
    form = NewGameForm(new_game_data(new_1="Ann", new_2="Bob", new_3="Cat", new_4="Dan", mode="2x2", team1="T" * 41), league=league)

    assert not form.is_valid()
    assert "The name is 41 characters long; at most 40 fit." in form.errors["team1"]


@pytest.mark.django_db
def test_a_name_that_is_only_invisible_characters_is_refused_not_taken_as_no_name(league):
    form = NewGameForm(new_game_data(new_1=ZWSP, new_2="Ann", new_3="Bob"), league=league)

    assert not form.is_valid()
    assert form.errors["new_1"] == ["The name shows as nothing: it has only invisible characters."]


@pytest.mark.django_db
def test_starting_a_game_says_when_a_typed_name_is_a_league_player(owner_client, league):
    Player.objects.create(league=league, name="Ann")

    response = owner_client.post(reverse("scores:game_new", args=[league.slug]), new_game_data(new_1="ann ", new_2="Bob"), follow=True)

    game = Game.objects.get()
    assert [seat.player.name for seat in Seat.objects.filter(game=game).select_related("player")] == ["Ann", "Bob"]
    assert "“ann” is the league&#x27;s player Ann." in response.text
    assert "“Bob”" not in response.text  # A new player is no news.


# Import -----------------------------------------------------------------------------------------


def upload(client, league, content: bytes):
    return client.post(reverse("scores:league_import", args=[league.slug]), {"file": SimpleUploadedFile("history.json", content)})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("seat", 'game "kitchen", seats[1]: is not text: it holds half of a UTF-16 pair (\\ud800)'),
        ("team", 'game "kitchen", rules.teams[1].name: is not text: it holds half of a UTF-16 pair (\\udc00)'),
        ("id", 'game "kitchen\ufffd", id: is not text: it holds half of a UTF-16 pair (\\ud800)'),
        ("pitcher", 'game "kitchen", hand 1, pitcher: is not text: it holds half of a UTF-16 pair (\\ud800)'),
    ],
)
def test_a_lone_surrogate_in_an_upload_is_a_located_problem_not_a_server_error(owner_client, league, where, message):
    response = upload(owner_client, league, surrogate_file(where))

    assert response.status_code == 400
    assert message in response.context["job"].problems
    assert not Game.objects.exists() and not Player.objects.exists()


def test_a_lone_surrogate_in_a_key_is_located_too():
    source = dumps(document(game("kitchen"))).decode().replace('"played_on"', '"played\\ud800"').encode()

    with pytest.raises(history_document.HistoryError) as error:
        history_document.read(source)

    messages = [str(problem) for problem in error.value.problems]
    assert 'game "kitchen", played\ufffd: a key is not text: it holds half of a UTF-16 pair (\\ud800)' in messages
    assert all(not names.has_surrogate(message) for message in messages)


@pytest.mark.django_db
def test_the_import_command_locates_a_lone_surrogate_and_creates_no_league(manage, tmp_path, capsys):
    path = tmp_path / "history.json"
    path.write_bytes(surrogate_file("seat").replace(b'"format"', b'"league": {"name": "Thursday\\ud800"}, "format"'))

    assert manage("import_history", str(path), "--league", "newleague") == 1

    err = capsys.readouterr().err
    assert 'game "kitchen", seats[1]: is not text' in err and "league.name: is not text" in err and "Traceback" not in err
    assert not League.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_an_import_normalises_names_and_a_zero_width_space_is_no_second_player(league):
    doc = document(game("kitchen", seats=["Ann", f"Ann{ZWSP}", "Bob"]))

    with pytest.raises(history_document.HistoryError) as error:
        services.import_history(league=league, source=dumps(doc))

    assert [str(p) for p in error.value.problems] == ['game "kitchen", seats: "Ann" is seated twice']
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_a_hand_may_name_a_player_in_another_form_of_the_seat(league):
    doc = document(game("kitchen", seats=["Ann", "Bob", "Cat", "Dan"], hands=[hand(f"Ann{ZWSP}", 2, FULL_WIDTH_ANN)]))

    services.import_history(league=league, source=dumps(doc))

    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Bob", "Cat", "Dan"]


@pytest.mark.django_db
def test_an_import_refuses_a_name_too_long_after_normalising(league):
    # Each ligature is one character in the file and three letters ("ffi") once normalised.
    doc = document(game("kitchen", seats=["\ufb03" * 20, "Bob"]))

    with pytest.raises(history_document.HistoryError) as error:
        services.import_history(league=league, source=dumps(doc))

    [problem] = error.value.problems
    assert str(problem).startswith('game "kitchen", seats, seat 1: "ffiffiffi') and str(problem).endswith(
        "is too long: at most 40 characters"
    )


@pytest.mark.django_db
def test_the_import_report_lists_names_matched_to_league_players(owner_client, league):
    Player.objects.create(league=league, name="Ann")
    doc = document(game("kitchen", seats=["ann", "Bob", "Cat", "Dan"], hands=[hand("ann", 2, "ann")]))

    response = upload(owner_client, league, dumps(doc))

    assert response.status_code == 200
    assert response.context["job"].matched == [["ann", "Ann"]]
    assert "“ann” is the league's player Ann." in response.text
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "Bob", "Cat", "Dan"]


@pytest.mark.django_db
def test_the_import_command_lists_names_matched_to_league_players(manage, tmp_path, capsys, league):
    Player.objects.create(league=league, name="Ann")
    path = tmp_path / "history.json"
    path.write_bytes(dumps(document(game("kitchen", seats=["ANN", "Bob"]))))

    assert manage("import_history", str(path), "--league", league.slug) == 0

    assert '  "ANN" is the league\'s player "Ann"' in capsys.readouterr().out


# Renaming ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_rename_stores_the_normal_form(league):
    player = Player.objects.create(league=league, name="Ann")

    leagues_services.rename_player(player=player, name=f"  Anne{ZWSP} Marie ")

    assert Player.objects.get(pk=player.pk).name == player.name == "Anne Marie"


@pytest.mark.django_db
def test_the_admin_refuses_a_rename_too_long_or_to_another_players_name(admin_client, league):
    ann = Player.objects.create(league=league, name="Ann")
    Player.objects.create(league=league, name="Bob")
    url = reverse("admin:scores_player_change", args=[ann.pk])

    too_long = admin_client.post(url, {"name": "A" * 41, "league": league.pk})
    same = admin_client.post(url, {"name": f"bob{ZWSP}", "league": league.pk})

    assert too_long.status_code == 200 and "The name is 41 characters long; at most 40 fit." in too_long.text
    assert same.status_code == 200 and same.context["adminform"].form.errors
    assert Player.objects.get(pk=ann.pk).name == "Ann"


# CSV export -------------------------------------------------------------------------------------


# The full-width = + - @, written as escapes.
@pytest.mark.parametrize("text", ["=1+1", "\uff1d1+1", "\uff0b1", "\uff0d1", "\uff20SUM(A1)"])
def test_the_csv_formula_guard_covers_the_full_width_signs(text):
    assert history_document.cell(text) == "'" + text


@pytest.mark.django_db
def test_a_game_id_starting_with_a_full_width_sign_is_text_in_the_csv(league):
    services.import_history(league=league, source=dumps(document(game("\uff1dHYPERLINK(1)", hands=[SPEC_HAND]))))

    data = b"".join(history_export.export_csv_zip(league.games.all()))

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        rows = list(csv.reader(io.StringIO(archive.read("hands.csv").decode("utf-8-sig"))))
    assert rows[1][0] == "'\uff1dHYPERLINK(1)"


# Form posts -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_form_post_cannot_carry_a_lone_surrogate(owner_client, league):
    # Percent-encoded, a surrogate is bytes that are not UTF-8: Django reads them as U+FFFD, so a post never
    # holds one (this guards that, should the decoding ever change).
    body = "&".join(f"{key}={value}" for key, value in new_game_data(new_2="Bob").items()) + "&new_1=Ann%ED%A0%80"

    response = owner_client.post(reverse("scores:game_new", args=[league.slug]), body, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 302
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann\ufffd\ufffd\ufffd", "Bob"]


# Short forms for the history table: the first name, with an initial when two share it.


@pytest.mark.parametrize(
    ("seated", "expected"),
    [
        (["Ann Lee", "Bob Marsh", "Cat"], ["Ann", "Bob", "Cat"]),  # Unique first names.
        (["Chris Allen", "Chris Brown", "Dan"], ["Chris A.", "Chris B.", "Dan"]),  # A shared first name: its initial.
        (["Ann", "Ann Lee"], ["Ann", "Ann L."]),  # One of them is the first name alone.
        (["Mary Ann Smith", "Mary Jones"], ["Mary S.", "Mary J."]),  # The initial of the last word.
        (["chris allen", "Chris Brown"], ["chris a.", "Chris B."]),  # Compared without case, as names are; the initial as typed.
        (["Chris Allen", "Chris Adams", "Chris Brown"], ["Chris Allen", "Chris Adams", "Chris B."]),  # Same initial: whole.
        (["Bob", "bob"], ["Bob", "bob"]),  # Identical: the whole name.
        (["Ann B.", "Ann Bell", "Ann Cole"], ["Ann B.", "Ann Bell", "Ann C."]),  # A short form never copies another name.
        (["X" * 40, "Yvonne Christabel Montgomery"], ["X" * 40, "Yvonne"]),
        ([], []),
    ],
)
def test_short_forms(seated, expected):
    assert list(names.short_forms(seated).values()) == expected
    assert list(names.short_forms(seated)) == seated
