"""The repository's documents link only to what a clone has: every relative link resolves to a file in it.

A link to a Markdown heading (``rules.md#house-rules``) must name a heading that file has.
Links with a scheme (https:, mailto:) are not followed.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.markdown_files import ROOT, anchors, links

DOCUMENTS = sorted({ROOT / "README.md", ROOT / "DEPLOY.md", ROOT / "BENCHMARKS.md", *(ROOT / "docs").glob("*.md")})


def dead_links(document: Path, text: str | None = None) -> list[str]:
    """The links in ``document`` (or in ``text``, as if it were there) that lead nowhere in the repository, each with why."""
    text = document.read_text(encoding="utf-8") if text is None else text
    dead = []
    for href in links(text):
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            continue
        path = unquote(parts.path)
        # A leading / is the repository's root, as on GitHub.
        target = document if not path else (ROOT / path.lstrip("/") if path.startswith("/") else document.parent / path).resolve()
        if not target.is_relative_to(ROOT):
            dead.append(f"{href}: outside the repository")
        elif not target.exists():
            dead.append(f"{href}: no such file")
        elif parts.fragment and target.suffix == ".md":
            headings = anchors(target.read_text(encoding="utf-8") if path else text)
            if unquote(parts.fragment) not in headings:
                dead.append(f"{href}: {target.relative_to(ROOT)} has no heading with that anchor")
    return dead


def test_the_documents_checked_are_there():
    for name in ("README.md", "DEPLOY.md", "BENCHMARKS.md", "docs/rules.md", "docs/history-format.md"):
        assert ROOT / name in DOCUMENTS
        assert (ROOT / name).is_file()


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_resolves_in_the_repository(document):
    assert dead_links(document) == []


def test_the_readme_links_to_the_rules_and_the_history_format():
    found = set(links((ROOT / "README.md").read_text(encoding="utf-8")))

    assert {"docs/rules.md", "docs/history-format.md", "DEPLOY.md", "BENCHMARKS.md"} <= found


def test_dead_links_finds_files_outside_missing_files_and_missing_anchors():
    text = """
[out](../shared/docs/pitch-rules.md) [missing](docs/nope.md) [no heading](docs/rules.md#no-such-rule)
[fine](docs/rules.md#house-rules) [here](#more-to-read) [gone](#more) [web](https://example.com/x.md) [root](/DEPLOY.md)
`[in code](nowhere.md)` ![picture](static/none.png)

## More to read
"""
    assert dead_links(ROOT / "README.md", text) == [
        "../shared/docs/pitch-rules.md: outside the repository",
        "docs/nope.md: no such file",
        "docs/rules.md#no-such-rule: docs/rules.md has no heading with that anchor",
        "#more: README.md has no heading with that anchor",
        "static/none.png: no such file",
    ]
