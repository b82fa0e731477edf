"""The hand form: its tap fields are its own, built for its table and in the language active when it is made."""

from __future__ import annotations

from django.utils import translation

from scores.engine import rules
from scores.table.forms.hands import HandForm

TABLE = rules.Table(seats=("Ann", "Bob", "Cat"), rules=rules.Rules(min_bid=2))


def test_each_hand_form_has_fields_of_its_own():
    first, second = HandForm(table=TABLE, dealer=None), HandForm(table=TABLE, dealer=None)
    assert all(first.fields[name] is not second.fields[name] for name in first.fields)
    first.fields["pitcher"].choices = [("Ann", "Ann")]
    assert [value for value, _label in second.fields["pitcher"].choices] == ["Ann", "Bob", "Cat"]


def test_the_buttons_are_those_of_the_table_and_its_rules():
    form = HandForm(table=TABLE, dealer=None)
    assert list(form.fields)[:6] == ["pitcher", "bid", "high", "low", "jack", "game"]
    assert [value for value, _label in form.fields["bid"].choices] == [2, 3, 4]
    assert [label for _value, label in form.fields["jack"].choices] == ["Ann", "Bob", "Cat", "Not in play"]


def test_the_labels_are_in_the_language_active_when_the_form_is_made():
    with translation.override("it"):
        italian = HandForm(table=TABLE, dealer=None)
    english = HandForm(table=TABLE, dealer=None)
    assert str(italian.fields["high"].label) == "Alta" and str(english.fields["high"].label) == "High"
    assert italian.fields["jack"].choices[-1][1] != "Not in play"
