"""The Rules page and docs/rules.md explain the house rules the app has, by the names the new-game page gives them.

And nothing the players or the repository's readers see points at planning files that are not in the repository.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from scores.engine import rules
from scores.table.forms.games import HOUSE_RULES, NewGameForm
from tests.markdown_files import ROOT

# Where the project was planned; a clone does not have these files, so nothing in it may point at them.
PLANNING_FILES = re.compile(r"pitch-rules\.md|shared/(?:docs|spec)/")


def form_names() -> list[str]:
    """Each house rule's name as the new-game form labels it, in English (up to a colon that explains it)."""
    with translation.override("en"):
        return [str(NewGameForm.base_fields[key].label).split(":")[0] for key in HOUSE_RULES]


def house_rules_section(html: str) -> str:
    return html.split('id="house-rules"', 1)[1]


@pytest.mark.django_db
def test_the_rules_page_explains_each_house_rule_by_its_name_on_the_new_game_form(client):
    html = client.get(reverse("scores:rules"), headers={"accept-language": "en"}).content.decode()

    explained = re.findall(r"<li><strong>([^<]+)</strong>", house_rules_section(html))

    assert explained == form_names()


def test_the_rules_document_lists_each_house_rule_by_its_name_on_the_new_game_form():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("\n## House rules\n", 1)[1].split("\n## ", 1)[0]

    rows = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ") and not line.startswith("| House rule")]

    assert rows == ["Target", *form_names()]


def test_no_template_or_document_points_at_the_planning_files():
    files = [*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md"), *(ROOT / "templates").rglob("*.html")]
    assert len(files) > 10

    assert [str(path.relative_to(ROOT)) for path in files if PLANNING_FILES.search(path.read_text(encoding="utf-8"))] == []


# The Pitch family: both say each variant as the rules engine scores it.


def point_words(key: str) -> str:
    point = rules.CATALOGUE[key]
    return point.name if point.value == 1 else f"{point.name} ({point.value})"


def variant_rows() -> list[list[str]]:
    """Each named variant as both tables write it: name, points, total, usual target, lowest bid."""
    return [
        [f"{v.total}-point", ", ".join(point_words(key) for key in v.points), str(v.total), str(v.target), str(v.min_bid)]
        for v in rules.VARIANTS.values()
    ]


def markdown_table(text: str, heading: str) -> list[list[str]]:
    section = text.split(f"\n### {heading}\n", 1)[1].split("\n#", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")][1:]
    return [[cell.strip().strip("*") for cell in line.strip("|").split("|")] for line in lines]


def test_the_rules_document_lists_every_variant_as_the_engine_scores_it():
    rows = markdown_table((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), "The variants")

    assert rows[:-1] == variant_rows()
    assert rows[-1][0] == "Custom" and rows[-1][3:] == [str(rules.CUSTOM.target), str(rules.CUSTOM.min_bid)]


def test_the_rules_document_lists_every_point_with_its_value():
    rows = markdown_table((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), "The points")

    assert [(row[0], row[2]) for row in rows] == [(p.name, str(p.value)) for p in rules.CATALOGUE.values()]
    assert [row[0] for row in rows if row[3] not in ("never", "never: a trump is always in play")] == [
        p.name for p in rules.CATALOGUE.values() if p.optional
    ]


@pytest.mark.django_db
def test_the_rules_page_lists_every_variant_as_the_engine_scores_it(client):
    html = client.get(reverse("scores:rules"), headers={"accept-language": "en"}).content.decode()
    table = html.split('<table class="table table-sm variants">', 1)[1].split("</table>", 1)[0]

    rows = [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in table.split("<tr>")[2:]]
    assert rows == variant_rows()


@pytest.mark.django_db
def test_both_explain_custom_games_teams_of_three_no_negative_scores_and_a_10_point_hand_the_engine_agrees_with(client):
    html = client.get(reverse("scores:rules"), headers={"accept-language": "en"}).content.decode()
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = rules.Table(seats=("Ann", "Bob", "Cat", "Dan"), rules=rules.Rules(variant="10-point"))
    no_negatives = rules.Table(seats=table.seats, rules=rules.Rules(variant="10-point", negative=False))
    points = {"ace": "Dan", "jack": "Bob", "off_jack": None, "big_joker": "Dan", "little_joker": "Dan", "ten": "Cat", "three": "Dan"}
    points["deuce"] = "Dan"
    bids = (("Bob", 4), ("Cat", None), ("Dan", 6), ("Ann", None))
    before = {"Ann": 0, "Bob": 0, "Cat": 0, "Dan": 3}

    made = rules.score_hand(table, rules.Hand("Dan", 6, points=points, bids=bids), number=1, dealer="Ann", before=before)
    set_back = rules.score_hand(table, rules.Hand("Dan", 8, points=points), number=1, dealer="Ann", before=before)
    floored = rules.score_hand(no_negatives, rules.Hand("Dan", 8, points=points), number=1, dealer="Ann", before=before)

    assert (made.won["Dan"], made.totals["Dan"], made.won["Bob"], made.won["Cat"]) == (7, 10, 1, 1)
    assert (set_back.totals["Dan"], floored.totals["Dan"]) == (-5, 0)
    for page in (html, " ".join(text.split())):
        assert "Dan scores 7 and has 10. Bob and Cat score 1 each." in page
        assert "set back by 8, to -5 (or to 0 with" in page
        assert "three teams of two" in page.lower() or "3 teams of 2" in page
        assert "teams of three" in page.lower() or "2 teams of 3" in page
        assert "Custom" in page and "no negative scores" in page
