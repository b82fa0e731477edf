"""The faults a translation can have that a reader notices at the table, one test each: two actions said with one
verb, a count that reads the same for one and for many, English left in a translation.

(One term, one word: ``test_glossary_docs.py``; the pages in each language: ``test_translations.py``.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests import catalogs
from tests.test_translations import SHARED, SHARED_BY_LANGUAGE

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ["af", "ceb", "it", "mt", "vi"]
DOMAINS = ["django", "djangojs"]


def _catalog(lang: str, domain: str = "django") -> dict[tuple[str | None, str], catalogs.Entry]:
    return {e.key: e for e in catalogs.messages(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po")}


# Two actions, two verbs ---------------------------------------------------------------------------------

# Each action's buttons (their first word is the verb) and the notice said after it.
BUTTONS = {
    "undo": [(None, "Undo last hand"), (None, "Undo last bid")],
    "delete": [(None, "Delete hand %(number)s"), (None, "Delete league"), (None, "Delete the league")],
    "restore": [("put an undone hand back", "Restore")],
    "remove": [(None, "Remove %(user)s")],
    "archive": [(None, "Archive %(name)s")],
}
NOTICES = {
    "undo": (None, "Hand %(number)s was undone."),
    "delete": (None, "Hand %(number)s was deleted."),
    "restore": (None, "Hand %(number)s was restored."),
}
SET_BACK = (None, "%(pitcher)s was set back %(bid)s")


def verb(text: str) -> str:
    """A button's first word, as a verb: "Ħassar", "I-undo" (Cebuano's prefix of a borrowed verb) → "ħassar", "undo"."""
    first = text.split()[0].casefold()
    return first.removeprefix("i-")


def test_verb_reads_the_first_word_of_a_button():
    assert verb("Ħassar l-aħħar rawnd") == "ħassar"
    assert verb("I-undo ang katapusang hugna") == "undo"
    assert verb("Hoàn tác vòng cuối") == "hoàn"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_undo_delete_restore_remove_archive_and_set_back_never_share_a_verb(lang):
    """A player who taps "Undo last hand" must not read the word of "Delete hand": the one can be restored, the other not;
    removing a member and archiving a player delete nothing."""
    catalog = _catalog(lang)
    verbs = {action: {verb(catalog[key].msgstr[0]) for key in keys} for action, keys in BUTTONS.items()}
    assert all(len(found) == 1 for found in verbs.values()), verbs  # One verb for each action, on all its buttons.
    chosen = {action: next(iter(found)) for action, found in verbs.items()}
    shared = {(a, b): chosen[a] for a in chosen for b in chosen if a < b and chosen[a] == chosen[b]}
    notices = {action: catalog[key].msgstr[0] for action, key in NOTICES.items()}
    same_notice = {(a, b): notices[a] for a in notices for b in notices if a < b and notices[a] == notices[b]}
    set_back = {w.casefold().strip(".,:;'\u2019") for w in catalog[SET_BACK].msgstr[0].split()}
    in_set_back = {action: v for action, v in chosen.items() if v in set_back}
    assert (shared, same_notice, in_set_back) == ({}, {}, {})


# Counts: each plural form where the language's grammar has one ------------------------------------------

# The pairs of plural forms that must read differently, by the grammar of counted nouns: Afrikaans and Italian
# say one and many otherwise; Maltese has one (1), a few (0, 2-10), the singular with -il (11-19) and the
# singular again (20 and up), so the few differ from the other three. Cebuano counts with "ka" and an
# unchanged noun ("3 ka hugna"), and Vietnamese has one form only: neither needs two.
MUST_DIFFER = {"af": [(0, 1)], "it": [(0, 1)], "mt": [(0, 1), (1, 2), (1, 3)], "ceb": [], "vi": []}
FORMS = {"af": 2, "ceb": 2, "it": 2, "mt": 4, "vi": 1}
# Counts whose words do not change with the number in a language, with the reason.
INVARIANT = {
    # The number stands alone and the verb does not change: "%(count)s is gemerk", "%(n)s sit uit", "a riposo".
    ("af", "A card night seats %(min)s to %(max)s players: %(count)s is ticked or typed."),
    ("af", "A full rotation needs 4k or 4k+1 players (4, 5, 8, 9, 12, 13, …, 28): %(count)s is ticked or typed."),
    ("af", "%(n)s sitting out"),
    ("it", "%(n)s sitting out"),
    ("it", "%(size)d byte"),  # Italian "byte" is invariable.
    # The rules line's target, said with the number alone: "tot 7", "sa 7".
    ("af", "to %(target)s"),
    ("mt", "to %(target)s"),
    # Maltese: no noun counted after the number ("ktibt %(count)s", a list of tables), or only the verb agrees, and
    # it is plural from two up ("joqogħdu barra"): the few and the many read the same.
    ("mt", "A card night seats %(min)s to %(max)s players: %(count)s is ticked or typed."),
    ("mt", "A full rotation needs 4k or 4k+1 players (4, 5, 8, 9, 12, 13, …, 28): %(count)s is ticked or typed."),
    ("mt", "%(n)s sitting out"),
    ("mt", "Table %(tables)s of round %(number)s is still playing: start the next round when it is over, or start it anyway."),
    ("mt", "%(names)s is archived: bring them back on the people page to seat them."),
}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_count_has_its_plural_forms_and_they_differ_where_the_grammar_does(lang, domain):
    counts = [e for e in _catalog(lang, domain).values() if e.plural]
    assert [e.msgid for e in counts if len(e.msgstr) != FORMS[lang]] == []
    same = [
        (e.msgid, i, j, e.msgstr[i])
        for e in counts
        if (lang, e.msgid) not in INVARIANT
        for i, j in MUST_DIFFER[lang]
        if e.msgstr[i] and e.msgstr[i] == e.msgstr[j]
    ]
    assert same == []


# No English left ----------------------------------------------------------------------------------------

MONTHS = {"af": {"April", "September", "November"}, "mt": {"April"}}
LOANWORDS = {"it": {"byte", "Maltese"}, "mt": {"byte", "bytes"}, "vi": {"byte"}, "ceb": {"Maltese"}}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_is_its_english_unless_every_word_is_one_the_language_shares(lang, domain):
    """A translation equal to its English is English left behind, unless its words are names, file formats and units,
    or words the language writes as English does (``test_translations.SHARED_BY_LANGUAGE``)."""
    allowed = SHARED | SHARED_BY_LANGUAGE[lang] | MONTHS.get(lang, set()) | LOANWORDS.get(lang, set())
    left = []
    for e in _catalog(lang, domain).values():
        english = [e.msgid] if not e.plural else [e.msgid, e.plural]
        for text, source in zip(e.msgstr, english + [english[-1]] * len(e.msgstr), strict=False):
            words = {w.strip(".,:;!?()“”\"'") for w in re.sub(r"%\(\w+\)[sd]|%[sd]", " ", source).split()} - {""}
            if text == source and not words <= allowed:
                left.append((e.msgid, sorted(words - allowed)))
    assert left == []
