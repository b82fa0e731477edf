"""The game's words: every catalog uses, for each part of the game, the word its players' rule sheet uses.

The pairs of entry and word live in ``tests/glossary_terms.py``, beside this test. A translation that names a
term with another word (an old coined word, a mistranslation, another term's word) fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests import catalogs
from tests.glossary_terms import ENTRIES, EXCEPTIONS, OLD_WORDS, WORDS

LANGUAGES = ["af", "ceb", "it", "mt", "vi"]


def _catalog(lang: str) -> dict[tuple[str | None, str], catalogs.Entry]:
    path = Path(settings.BASE_DIR) / "locale" / lang / "LC_MESSAGES" / "django.po"
    return {entry.key: entry for entry in catalogs.messages(path)}


def _key(key) -> tuple[str | None, str]:
    return key if isinstance(key, tuple) else (None, key)


def uses_word(text: str, word: str) -> bool:
    """Whether ``text`` has ``word`` as a whole word (or words), whatever the case."""
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE) is not None


def test_uses_word_matches_whole_words_only():
    assert uses_word("Tocca l'Offerta.", "offerta")
    assert uses_word("il-pitcher joħroġ", "pitcher")
    assert uses_word("Người thắng thầu bị trừ", "người thắng thầu")
    assert not uses_word("offerte", "offerta")
    assert not uses_word("Tig-pitcher", "pitch")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_glossary_term_uses_the_players_word(lang):
    catalog = _catalog(lang)
    wrong = []
    for term, word in WORDS[lang].items():
        for key in ENTRIES[term]:
            entry = catalog.get(_key(key))
            assert entry is not None, f"{key!r} is not in the {lang} catalog: update tests/glossary_terms.py"
            expected = EXCEPTIONS.get((lang, term, key), word)
            wrong += [(term, expected, key, text) for text in entry.msgstr if not uses_word(text, expected)]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_uses_a_word_the_glossary_replaced(lang):
    old = re.compile(r"(?<!\w)(?:" + "|".join(OLD_WORDS[lang]) + r")(?!\w)", re.IGNORECASE)
    found = [(entry.msgid, match.group(0)) for entry in _catalog(lang).values() for text in entry.msgstr for match in old.finditer(text)]
    assert found == []


def test_every_language_has_a_word_for_each_part_of_the_game():
    """The sheets name at least these in every language; a term dropped from a table would go unchecked."""
    for lang in LANGUAGES:
        assert {"pitcher", "bid", "pass", "dealer", "trump", "High", "Low", "Jack", "Game", "team", "hand", "trick", "steal"} <= set(
            WORDS[lang]
        )
