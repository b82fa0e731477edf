"""docs/history-format.md's examples are what the app does: its files import and score as the page says.

Every JSON block on the page is JSON. Every whole document on it imports into an
empty league, and the export of what was stored says the same as the page on
every field the page gives, the derived scores included. The CSV blocks are the
CSV export of the worked example.
"""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from scores import services
from scores.history import document as history_document
from scores.history import export as history_export
from scores.models import League
from tests.markdown_files import ROOT, Fence, fences

PAGE = ROOT / "docs" / "history-format.md"
FENCES = fences(PAGE.read_text(encoding="utf-8"))
JSON_BLOCKS = [fence for fence in FENCES if fence.info == "json"]
DOCUMENTS = [fence for fence in JSON_BLOCKS if '"format": "pitch-history"' in fence.text]
WORKED_EXAMPLE = "A worked example"


def imported(fence: Fence) -> tuple[dict, League]:
    """The page's document, and a new league it was imported into (named as the document's league)."""
    documented = json.loads(fence.text)
    league = League.objects.create(name=documented.get("league", {}).get("name", "Docs"), slug="docs")
    report = services.import_history(league=league, source=fence.text)
    assert report.imported == tuple(game["id"] for game in documented["games"])
    assert report.skipped == ()
    return documented, league


def test_the_page_has_the_examples_this_file_checks():
    assert len(DOCUMENTS) >= 2
    assert [fence.section for fence in DOCUMENTS].count(WORKED_EXAMPLE) == 1
    assert [fence.info for fence in FENCES if fence.section == WORKED_EXAMPLE] == ["json", "csv", "csv"]


@pytest.mark.parametrize("fence", JSON_BLOCKS, ids=lambda fence: fence.section)
def test_every_json_block_is_json(fence):
    assert isinstance(json.loads(fence.text), dict)


@pytest.mark.django_db
@pytest.mark.parametrize("fence", DOCUMENTS, ids=lambda fence: fence.section)
def test_each_documented_file_imports_and_exports_as_the_page_says(fence):
    documented, league = imported(fence)

    exported = json.loads("".join(history_export.export_json(league.games.all(), league_name=league.name)))

    assert exported["format"] == documented["format"] and exported["version"] == documented["version"]
    if "league" in documented:
        assert exported["league"] == documented["league"]
    assert len(exported["games"]) == len(documented["games"])
    for page_game, game in zip(documented["games"], exported["games"], strict=True):
        for key, value in page_game.items():
            if key == "rules":
                # The page may leave out a rule that takes its default; every rule it gives is what was stored.
                assert value == {rule: game["rules"].get(rule) for rule in value}
            elif key == "hands":
                assert len(game["hands"]) == len(value)
                for number, (page_hand, hand) in enumerate(zip(value, game["hands"], strict=True), start=1):
                    assert page_hand == {field: hand.get(field) for field in page_hand}, f"{page_game['id']}, hand {number}"
            else:
                assert game[key] == value, f"{page_game['id']}, {key}"


@pytest.mark.django_db
def test_the_worked_example_gives_every_derived_field_the_page_checks():
    """So the test above compares the scores themselves, not just what was typed in."""
    (fence,) = [fence for fence in DOCUMENTS if fence.section == WORKED_EXAMPLE]
    documented = json.loads(fence.text)

    for game in documented["games"]:
        assert set(game) == {"id", "played_on", "rules", "seats", "hands", "result"}
        assert game["hands"]
        for hand in game["hands"]:
            assert {"dealer", "won", "delta", "totals", "set"} <= set(hand)
    assert {game["result"]["winner"] for game in documented["games"]} == {"Ann", None}  # One game won, one going on.


@pytest.mark.django_db
def test_the_csv_blocks_are_the_csv_export_of_the_worked_example():
    worked = [fence for fence in FENCES if fence.section == WORKED_EXAMPLE]
    _documented, league = imported(next(fence for fence in worked if fence.info == "json"))

    data = b"".join(history_export.export_csv_zip(league.games.all()))

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name).decode("utf-8-sig").splitlines() for name in archive.namelist()}
    assert sorted(files) == ["hands.csv", "scores.csv"]
    page = {fence.text.splitlines()[0]: fence.text.splitlines() for fence in worked if fence.info == "csv"}
    assert page[",".join(history_document.HANDS_HEADER)] == files["hands.csv"]
    assert page[",".join(history_document.SCORES_HEADER)] == files["scores.csv"]
