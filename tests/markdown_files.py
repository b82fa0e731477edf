"""Reading the repository's Markdown files for the docs tests: links, headings and fenced code blocks.

markdown-it-py parses them as CommonMark does, so a link inside a code span or a
fenced block is not taken for a link, and a fence is found however it is indented.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent

_parser = MarkdownIt("commonmark").enable("table")


def tokens(text: str) -> list[Token]:
    return _parser.parse(text)


def _plain(inline: Token) -> str:
    """A heading's text as shown: code spans keep their text, markup is dropped."""
    return "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen."""
    kept = (c for c in heading.strip().lower() if c.isalnum() or c in "-_ " or unicodedata.category(c).startswith("M"))
    return "".join(kept).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2, … as on GitHub."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    parsed = tokens(text)
    for i, token in enumerate(parsed):
        if token.type == "heading_open":
            base = slug(_plain(parsed[i + 1]))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(text: str) -> Iterator[str]:
    """Every link and image target, in order."""
    for token in tokens(text):
        for child in token.children or ():
            if child.type == "link_open":
                yield str(child.attrs["href"])
            elif child.type == "image":
                yield str(child.attrs["src"])


@dataclasses.dataclass(frozen=True)
class Fence:
    """A fenced code block: its language (``json``, ``csv``), its text, and the section (h2) it is in."""

    info: str
    text: str
    section: str


def fences(text: str) -> list[Fence]:
    found = []
    section = ""
    parsed = tokens(text)
    for i, token in enumerate(parsed):
        if token.type == "heading_open" and token.tag == "h2":
            section = _plain(parsed[i + 1])
        elif token.type == "fence":
            found.append(Fence(token.info.strip(), token.content, section))
    return found
