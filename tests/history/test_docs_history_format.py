"""docs/history-format.md's examples are what the app does: its files import and score as the page says.

Every JSON block on the page is JSON. Every whole document on it imports into an
empty league, and the export of what was stored says the same as the page on
every field the page gives, the derived scores included; a ``rules`` object on
the page is the one the export writes, every key. The worked example is an
export, all of it but the time it was made. The CSV blocks are the CSV export of
the worked example, every file of it.
"""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from scores.engine import rules
from scores.history import document as history_document
from scores.history import export as history_export
from scores.history import services
from scores.leagues.models import League
from tests.history_docs import v2_game
from tests.markdown_files import ROOT, Fence, fences

PAGE = ROOT / "docs" / "history-format.md"
FENCES = fences(PAGE.read_text(encoding="utf-8"))
JSON_BLOCKS = [fence for fence in FENCES if fence.info == "json"]
DOCUMENTS = [fence for fence in JSON_BLOCKS if '"format": "pitch-history"' in fence.text]
WORKED_EXAMPLE = "A worked example"
POINT = "<point>"  # The page's name for the point columns: one per point key the games use.
CSV_FILES = {
    "games.csv": (*history_document.GAMES_HEADER, *history_document.SEASON_HEADER),  # The seasons' columns when asked for.
    "hands.csv": history_document.hands_header([POINT]),
    "scores.csv": history_document.SCORES_HEADER,
    "standings.csv": history_document.standings_header([POINT]),
}


def imported(fence: Fence) -> tuple[dict, League]:
    """The page's document, and a new league it was imported into (named as the document's league)."""
    documented = json.loads(fence.text)
    league = League.objects.create(name=documented.get("league", {}).get("name", "Docs"), slug="docs")
    report = services.import_history(league=league, source=fence.text)
    assert report.imported == tuple(game["id"] for game in documented["games"])
    assert report.skipped == ()
    return documented, league


def documented_columns(text: str) -> dict[str, list[str]]:
    """The columns each CSV file's table names in "The CSV zip": the code spans of each row's first cell, in order."""
    section = text.split("\n## The CSV zip\n", 1)[1].split("\n## ", 1)[0]
    columns: dict[str, list[str]] = {}
    current = None
    for line in section.splitlines():
        heading = re.match(r"\*\*`([\w.]+)`\*\*", line)
        if heading:
            current = columns.setdefault(heading[1], [])
        elif current is not None and line.startswith("| `"):
            current.extend(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return columns


def test_the_page_has_the_examples_this_file_checks():
    assert len(DOCUMENTS) >= 2
    assert [fence.section for fence in DOCUMENTS].count(WORKED_EXAMPLE) == 1
    assert [fence.info for fence in FENCES if fence.section == WORKED_EXAMPLE] == ["json", "csv", "csv", "csv"]


def test_the_csv_zip_section_names_every_column_of_every_file_in_order():
    assert documented_columns(PAGE.read_text(encoding="utf-8")) == {name: list(header) for name, header in CSV_FILES.items()}


def test_documented_columns_reads_each_files_table():
    text = """
## The CSV zip

**`a.csv`**: x.

| Column | Meaning |
|---|---|
| `p`, `q` | the `r` |
| `s` | t |

## Next
| `u` | v |
"""
    assert documented_columns(text) == {"a.csv": ["p", "q", "s"]}


@pytest.mark.parametrize("fence", JSON_BLOCKS, ids=lambda fence: fence.section)
def test_every_json_block_is_json(fence):
    assert isinstance(json.loads(fence.text), dict)


@pytest.mark.django_db
@pytest.mark.parametrize("fence", DOCUMENTS, ids=lambda fence: fence.section)
def test_each_documented_file_imports_and_exports_as_the_page_says(fence):
    documented, league = imported(fence)

    exported = json.loads("".join(history_export.export_json(league.games.all(), league_name=league.name)))

    # An export writes version 2; a version 1 file on the page is the same games in version 1's words.
    assert exported["format"] == documented["format"] and exported["version"] == 2 and documented["version"] in (1, 2)
    if "league" in documented:
        assert exported["league"] == documented["league"]
    assert len(exported["games"]) == len(documented["games"])
    page_games = documented["games"] if documented["version"] == 2 else [v2_game(game) for game in documented["games"]]
    for page_game, game in zip(page_games, exported["games"], strict=True):
        for key, value in page_game.items():
            if key == "rules":
                # The page says an export writes every rule, defaults included: a page that shows rules shows them all.
                assert value == game["rules"], f"{page_game['id']}, rules"
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
def test_the_worked_example_is_what_the_export_writes():
    (fence,) = [fence for fence in DOCUMENTS if fence.section == WORKED_EXAMPLE]
    documented, league = imported(fence)

    exported = json.loads("".join(history_export.export_json(league.games.all(), league_name=league.name)))

    assert {**exported, "exported_at": documented["exported_at"]} == documented


@pytest.mark.django_db
def test_a_rule_a_file_leaves_out_is_the_rule_sheets_whatever_the_leagues_house_rules():
    """As the page says of the ``rules`` object: the league's usual house rules are for the games started in the app."""
    (fence,) = [fence for fence in DOCUMENTS if fence.section == "The shortest file"]
    league = League.objects.create(name="Docs", slug="docs", target=11, going_out="made_bid", min_bid=2, steal=False, smudge=True)

    services.import_history(league=league, source=fence.text)

    (game,) = league.games.all()
    assert game.rules == rules.Rules()


@pytest.mark.django_db
def test_the_csv_blocks_are_the_csv_export_of_the_worked_example():
    worked = [fence for fence in FENCES if fence.section == WORKED_EXAMPLE]
    _documented, league = imported(next(fence for fence in worked if fence.info == "json"))

    data = b"".join(history_export.export_csv_zip(league.games.all()))

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name).decode("utf-8-sig").splitlines() for name in archive.namelist()}
    assert sorted(files) == ["games.csv", "hands.csv", "scores.csv"]
    # The page's CSV blocks, in order, are the zip's files, in order: each its header row and every row after it.
    assert [fence.text.splitlines() for fence in worked if fence.info == "csv"] == list(files.values())
