"""A small reader of gettext .po files for the translation tests (no dependency beyond the standard library)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path


@dataclasses.dataclass
class Entry:
    msgid: str
    context: str | None = None
    plural: str | None = None
    msgstr: list[str] = dataclasses.field(default_factory=list)
    flags: set[str] = dataclasses.field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


# Kept whole (C901, PLR0912, PLR0915): a .po reader, one branch a kind of line, as the gettext manual lists them.
def read(path: Path) -> list[Entry]:  # noqa: C901, PLR0912, PLR0915
    """The entries of a .po file, the header (msgid "") included."""
    entries: list[Entry] = []
    entry = Entry("")
    field: str | None = None
    started = False

    def finish() -> None:
        nonlocal entry, started
        if started:
            entries.append(entry)
        entry, started = Entry(""), False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):
            entry.obsolete = True
            line = line[2:].strip()
            if not line:
                continue
        if not line:
            finish()
            field = None
            continue
        if line.startswith("#,"):
            if started:
                finish()
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            if started and field is not None and field.startswith("msgstr"):
                finish()
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            text = ast.literal_eval(line)
        else:
            text = ast.literal_eval(rest.strip())
            if keyword in ("msgctxt", "msgid") and started and field is not None and field.startswith("msgstr"):
                flags, obsolete = entry.flags, entry.obsolete
                finish()
                entry.flags, entry.obsolete = flags, obsolete
            started = True
            field = keyword
            if keyword.startswith("msgstr"):
                entry.msgstr.append("")
            if keyword == "msgctxt":
                entry.context = ""
            if keyword == "msgid_plural":
                entry.plural = ""
        if field == "msgctxt":
            entry.context = (entry.context or "") + text
        elif field == "msgid":
            entry.msgid += text
        elif field == "msgid_plural":
            entry.plural = (entry.plural or "") + text
        elif field is not None and field.startswith("msgstr"):
            entry.msgstr[-1] += text
    finish()
    return entries


def messages(path: Path) -> list[Entry]:
    """The catalog's messages: no header, no obsolete entries."""
    return [e for e in read(path) if e.msgid and not e.obsolete]
