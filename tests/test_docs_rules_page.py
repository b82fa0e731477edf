"""The Rules page and docs/rules.md explain the house rules the app has, by the names the new-game page gives them.

And nothing the players or the repository's readers see points at planning files that are not in the repository.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from scores.forms.games import HOUSE_RULES, NewGameForm
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
