"""The names people type (players, teams, leagues, seasons, card nights) in one normal form, whichever way they come
in (forms, import, admin).

Pure Python, no Django: the rules engine compares names with ``key`` too. A name is
NFKC-normalised (full-width letters, ligatures and composed accents become the plain
ones), loses control and format characters (zero-width spaces and joiners, byte-order
marks, the marks, overrides and isolates that turn text right to left), and has its
whitespace collapsed to single spaces and trimmed, so "Ann" and "Ann" with a
zero-width space after it are one name. Names are compared without case.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

# Half of a UTF-16 pair on its own: JSON can write one ("\ud800"), but it is no character, and neither a
# database nor a page in UTF-8 can hold it.
MAX_LENGTH = 40  # The longest name of a player or a team, once clean.
MAX_ID_LENGTH = 100  # The longest game id: the history format's "id", kept as Game.code.
SURROGATE = re.compile("[\ud800-\udfff]")
_INVISIBLE = frozenset({"Cc", "Cf"})


def clean(name: str) -> str:
    """The name as it is stored and shown."""
    if name.isascii() and name.isprintable():  # Most names: NFKC changes no ASCII, and nothing is invisible.
        return " ".join(name.split())
    text = unicodedata.normalize("NFKC", name)
    # Whitespace first (tabs and newlines are control characters too, but they part words).
    text = "".join(ch if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE else "" for ch in text)
    return " ".join(text.split())


@functools.lru_cache(maxsize=4096)  # The rules engine compares the same few names for every hand.
def key(name: str) -> str:
    """What two names are compared by: the clean name without case."""
    return clean(name).casefold()


def has_surrogate(text: str) -> bool:
    return SURROGATE.search(text) is not None


def mend(text: str) -> str:
    """The text with each lone surrogate replaced by U+FFFD, so a message can show where it was."""
    return SURROGATE.sub("\ufffd", text)


def short_forms(names: Iterable[str]) -> dict[str, str]:
    """How a narrow table shows each of these names: the first name where no other name starts with it, else the first
    name and the initial of the last word ("Chris R."), else (the same initial, or one word) the whole name. Names
    are compared as ``key`` compares them; two names never share a short form."""
    names = list(dict.fromkeys(names))
    firsts: dict[str, list[str]] = {}
    for name in names:
        firsts.setdefault(key(name.split(" ")[0]), []).append(name)
    short = {}
    for group in firsts.values():
        for name in group:
            words = name.split(" ")
            short[name] = words[0] if len(group) == 1 else f"{words[0]} {words[-1][0]}." if len(words) > 1 else name
    taken = Counter(key(form) for form in short.values())
    return {name: short[name] if taken[key(short[name])] == 1 else name for name in names}
