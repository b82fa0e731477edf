"""The rules engine's problems, and a card night's notes, in the reader's language.

``scores.engine.rules`` has no Django in it: its problems carry an English message
template marked with ``N_`` (the msgid) and the parameters. Here the template
goes through gettext and the parameters that are words (a point, a pass, a
list of bids) are put in translated, so a problem reads the same in every
language the app speaks. Problems made elsewhere (services, history) are
translated where they are made and pass through unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.translation import gettext, pgettext

from . import planner, rules

EXCERPT = 40  # The most of a refused value a message quotes: a crafted post or file may send megabytes of it.


def excerpt(text: str) -> str:
    """``text``, or its first characters and "..." when it is longer than ``EXCERPT``."""
    return text if len(text) <= EXCERPT else text[: EXCERPT - 3] + "..."


def point_name(key: str) -> str:
    """A point of ``rules.CATALOGUE`` as players say it, in the active language."""
    names = {
        "high": pgettext("card game point", "High"),
        "low": pgettext("card game point", "Low"),
        "jack": pgettext("card game point", "Jack"),
        "off_jack": pgettext("card game point", "Off-jack"),
        "joker": pgettext("card game point", "Joker"),
        "big_joker": pgettext("card game point", "Big joker"),
        "little_joker": pgettext("card game point", "Little joker"),
        "ace": pgettext("card game point", "Ace"),
        "off_ace": pgettext("card game point", "Off-ace"),
        "ten": pgettext("card game point", "Ten"),
        "deuce": pgettext("card game point", "Two"),
        "three": pgettext("card game point", "Three"),
        "off_three": pgettext("card game point", "Off-three"),
        "five": pgettext("card game point", "Five"),
        "game": pgettext("card game point", "Game"),
    }
    return names.get(key, key)


def variant_name(name: str) -> str:
    """A variant of ``rules.VARIANTS`` (or custom) as players say it, in the active language: "10-point", "Custom"."""
    variant = rules.VARIANTS.get(name)
    if variant is None:
        return pgettext("Pitch variant", "Custom") if name == rules.CUSTOM.name else name
    return pgettext("Pitch variant", "%(total)s-point") % {"total": variant.total}


def _param(key: str, value: object) -> str:
    """A parameter as the translated message shows it, a value from the input cut to an excerpt; the English twin is
    ``rules.english``."""
    if key == "allowed":
        return alternatives(value)  # type: ignore[arg-type]
    if key == "said":
        return pgettext("bid", "pass") if value is None else excerpt(repr(value))
    if key == "point":
        return point_name(str(value))
    if key in ("keys", "points"):
        return str(value)  # The app's own lists of point keys, not a value it refused.
    return excerpt(str(value))


def message(problem: rules.Problem) -> str:
    """What is wrong, in the active language (without where it is)."""
    if not problem.template:
        return problem.message
    params = dict(problem.params)
    return gettext(problem.template) % {key: _param(key, value) for key, value in params.items()} if params else gettext(problem.template)


def located(problem: rules.Problem, *, within: Iterable[str] = ()) -> str:
    """What is wrong and where, in the active language: ``hand 3, bid: …``, after ``within`` (a game, say)."""
    where = list(within)
    if problem.hand is not None:
        where.append(gettext("hand %(number)s") % {"number": problem.hand})
    if problem.field:
        where.append(problem.field)
    text = message(problem)
    return f"{', '.join(where)}: {text}" if where else text


def describe(problems: Iterable[rules.Problem]) -> str:
    """Several problems in one line, as ``str(RulesError)`` has them in English."""
    return "; ".join(located(problem) for problem in problems)


def _separated(words: list[str]) -> str:
    return pgettext("between the items of a list", ", ").join(words)


def alternatives(items: Iterable[object]) -> str:
    """Items as a choice in the active language: "2, 3 or 4"."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return gettext("%(choices)s or %(last)s") % {"choices": _separated(words[:-1]), "last": words[-1]}


def words(items: Iterable[object]) -> str:
    """Items as a list in the active language: "Ann, Bob and Cat"."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return gettext("%(items)s and %(last)s") % {"items": _separated(words[:-1]), "last": words[-1]}


def note(note: planner.Note, names: Mapping[int, str]) -> str:
    """What a card night's round did with the players left over, in the active language: ``Note.english``'s twin."""
    params = {key: words(value) if isinstance(value, tuple) else value for key, value in note.params}
    return gettext(note.template) % {**params, "players": words(names[p] for p in note.players)}
