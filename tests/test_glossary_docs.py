"""One term, one word: docs/glossary.md's tables, checked against every catalog entry that names the term.

The tables are the source: a word changed in a catalog is changed there too, and this test then holds the other
entries to it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests import catalogs

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ["af", "ceb", "it", "mt", "vi"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def tables() -> list[list[dict[str, str]]]:
    """The glossary's tables, each a list of rows by column name (a cell's "\\|" is a "|")."""
    found: list[list[dict[str, str]]] = []
    header: list[str] | None = None
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip().replace("\\|", "|").strip("`") for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        if header is None:
            header = cells
            found.append([])
        elif not set(line) <= set("|- "):
            found[-1].append(dict(zip(header, cells, strict=True)))
    return found


WORDS, POINTS = tables()


def _catalog(lang: str) -> list[catalogs.Entry]:
    return catalogs.messages(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po")


def test_the_glossary_has_its_two_tables():
    assert {"league", "season", "card night", "round (of a card night)", "undo", "delete", "restore"} <= {r["Term"] for r in WORDS}
    assert len(POINTS) == 15 and {"Off-jack", "Big joker", "Off-three"} <= {r["Point"] for r in POINTS}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_term_has_one_word_in_every_entry_that_names_it(lang):
    entries = _catalog(lang)
    wrong = []
    for row in WORDS:
        english = re.compile(rf"(?<!\w)(?:{row['English']})(?!\w)", re.IGNORECASE)
        forms = [form.strip().casefold() for form in row[lang].split(" / ")]
        for entry in entries:
            if english.search(PLACEHOLDER.sub(" ", entry.msgid)):
                wrong += [(row["Term"], entry.msgid, text) for text in entry.msgstr if not any(f in text.casefold() for f in forms)]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_point_of_the_family_is_its_word(lang):
    catalog = {entry.key: entry.msgstr for entry in _catalog(lang)}
    assert {row["Point"]: catalog.get(("card game point", row["Point"])) for row in POINTS} == {row["Point"]: [row[lang]] for row in POINTS}
