"""The export_history and import_history commands: output, files, exit status and messages."""

from __future__ import annotations

import datetime
import io
import json
import zipfile

import pytest

from scores.history import services
from scores.leagues.models import League, Player
from scores.standings import services as standings_services
from scores.standings.models import Season
from scores.table.models import Game
from tests.history_docs import SPEC_HAND, document, dumps, game, hand, without_export_fields

pytestmark = pytest.mark.django_db


def write(tmp_path, doc) -> str:
    path = tmp_path / "history.json"
    path.write_bytes(doc if isinstance(doc, bytes) else dumps(doc))
    return str(path)


def test_import_creates_the_league_and_exits_zero(manage, tmp_path, capsys):
    path = write(tmp_path, document(game("a", hands=[SPEC_HAND]), game("b"), league={"name": "Thursday Pitch"}))

    assert manage("import_history", path, "--league", "thursday") == 0

    league = League.objects.get(slug="thursday")
    assert league.name == "Thursday Pitch"
    assert sorted(league.games.values_list("code", flat=True)) == ["a", "b"]
    out = capsys.readouterr().out
    assert "Imported 2 games into thursday." in out and "imported a" in out


def test_importing_again_skips_and_reports_the_games_the_league_has(manage, tmp_path, capsys, league):
    path = write(tmp_path, document(game("a", hands=[SPEC_HAND])))
    assert manage("import_history", path, "--league", league.slug) == 0
    capsys.readouterr()

    assert manage("import_history", path, "--league", league.slug) == 0

    out = capsys.readouterr().out
    assert "Imported 0 games" in out and "skipped a" in out
    assert Game.objects.count() == 1


def test_an_invalid_file_exits_non_zero_lists_every_problem_and_stores_nothing(manage, tmp_path, capsys):
    path = write(tmp_path, document(game("a", hands=[hand("Zoe", 5, "Ann")])))

    assert manage("import_history", path, "--league", "newleague") == 1

    err = capsys.readouterr().err
    assert "has 2 problems:" in err
    assert "game \"a\", hand 1, pitcher: the pitcher must be a seated player, got 'Zoe'" in err
    assert 'game "a", hand 1, bid: bid must be 1-4, got 5' in err
    assert "nothing was imported" in err and "Traceback" not in err
    assert not League.objects.filter(slug="newleague").exists() and not Player.objects.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "the file is empty"), (b"\xff\x00", "the file is not UTF-8 text"), (b"<html>", "the file is not valid JSON: Expecting value")],
)
def test_a_file_that_is_not_json_is_refused_with_a_message(manage, tmp_path, capsys, content, message):
    assert manage("import_history", write(tmp_path, content), "--league", "x") == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not League.objects.exists()


def test_a_missing_file_gets_a_clear_message_not_a_traceback(manage, tmp_path, capsys):
    assert manage("import_history", str(tmp_path / "nope.json"), "--league", "x") == 1
    err = capsys.readouterr().err
    assert f"cannot read {tmp_path / 'nope.json'}: No such file or directory" in err and "Traceback" not in err


def test_a_bad_league_short_name_is_refused(manage, tmp_path, capsys):
    assert manage("import_history", write(tmp_path, document()), "--league", "not a slug") == 1
    assert "a short name has only letters, numbers, hyphens and underscores" in capsys.readouterr().err
    assert not League.objects.exists()


def test_missing_arguments_are_usage_errors(manage, capsys):
    assert manage("import_history") == 2
    assert "the following arguments are required: file, --league" in capsys.readouterr().err


def test_export_writes_json_to_standard_output(manage, capsys, league):
    services.import_history(league=league, source=dumps(document(game("a", hands=[SPEC_HAND]))))

    assert manage("export_history", "--league", league.slug) == 0

    doc = json.loads(capsys.readouterr().out)
    assert doc["league"] == {"name": league.name}
    assert [g["id"] for g in doc["games"]] == ["a"] and doc["games"][0]["hands"][0]["set"] is True


def test_export_then_import_elsewhere_gives_the_same_document(manage, tmp_path, capsys, league):
    services.import_history(league=league, source=dumps(document(game("a", hands=[SPEC_HAND]), game("b"))))
    out = tmp_path / "out.json"
    assert manage("export_history", "--league", league.slug, "--output", str(out)) == 0
    assert manage("import_history", str(out), "--league", "copy") == 0
    capsys.readouterr()
    assert manage("export_history", "--league", "copy") == 0

    again = json.loads(capsys.readouterr().out)
    assert without_export_fields(again) == without_export_fields(json.loads(out.read_text()))
    assert League.objects.get(slug="copy").name == league.name


def test_a_league_moved_with_the_seasons_keeps_them(manage, tmp_path, capsys, league, owner):
    services.import_history(league=league, source=dumps(document(game("a", hands=[SPEC_HAND]), game("b", played_on="2026-12-02"))))
    standings_services.start_season(league=league, name="December", starts_on=datetime.date(2026, 12, 1), by=owner)
    out = tmp_path / "out.json"
    assert manage("export_history", "--league", league.slug, "--seasons", "--output", str(out)) == 0
    assert [g.get("season") for g in json.loads(out.read_text())["games"]] == [None, {"name": "December", "starts_on": "2026-12-01"}]
    assert manage("import_history", str(out), "--league", "copy") == 0
    assert list(Season.objects.filter(league__slug="copy").values_list("name", "starts_on")) == [("December", datetime.date(2026, 12, 1))]
    capsys.readouterr()
    assert manage("export_history", "--league", "copy", "--seasons") == 0
    assert without_export_fields(json.loads(capsys.readouterr().out)) == without_export_fields(json.loads(out.read_text()))


def test_export_csv_writes_a_zip_to_the_output_file(manage, tmp_path, league):
    services.import_history(league=league, source=dumps(document(game("a", hands=[SPEC_HAND, hand("Bob", 1, "Bob")]))))
    out = tmp_path / "league.zip"

    assert manage("export_history", "--league", league.slug, "--format", "csv", "--output", str(out)) == 0

    with zipfile.ZipFile(out) as archive:
        assert sorted(archive.namelist()) == ["games.csv", "hands.csv", "scores.csv", "standings.csv"]
        assert len(archive.read("hands.csv").decode("utf-8-sig").splitlines()) == 1 + 2


def test_export_csv_to_redirected_standard_output_is_a_zip(manage, capsysbinary, league):
    assert manage("export_history", "--league", league.slug, "--format", "csv") == 0
    names = zipfile.ZipFile(io.BytesIO(capsysbinary.readouterr().out)).namelist()
    assert names == ["games.csv", "hands.csv", "scores.csv", "standings.csv"]


def test_export_of_an_unknown_league_exits_non_zero(manage, capsys):
    assert manage("export_history", "--league", "nowhere") == 1
    assert "there is no league with the short name 'nowhere'" in capsys.readouterr().err


def test_export_to_an_unwritable_file_gets_a_clear_message(manage, tmp_path, capsys, league):
    assert manage("export_history", "--league", league.slug, "--output", str(tmp_path / "missing" / "x.json")) == 1
    assert f"cannot write {tmp_path / 'missing' / 'x.json'}: No such file or directory" in capsys.readouterr().err


def test_export_rejects_an_unknown_format(manage, capsys, league):
    assert manage("export_history", "--league", league.slug, "--format", "xml") == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err
