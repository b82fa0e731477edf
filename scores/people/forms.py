"""A league's people: a guest's name, a new name, archiving, a claim's answer, the two players of a merge."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..common.forms import ShortRefusals
from ..leagues.models import League, Player
from ..table.forms.games import NameField


class GuestForm(ShortRefusals, forms.Form):
    name = NameField(label=_("Guest's name"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["class"] = "form-control"


class RenameForm(ShortRefusals, forms.Form):
    name = NameField(label=_("New name"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["class"] = "form-control"


class ArchiveForm(ShortRefusals, forms.Form):
    archived = forms.TypedChoiceField(choices=[("yes", "yes"), ("no", "no")], coerce=lambda value: value == "yes")


class ClaimDecisionForm(ShortRefusals, forms.Form):
    decision = forms.ChoiceField(choices=[("confirm", "confirm"), ("decline", "decline")])


class MergeForm(ShortRefusals, forms.Form):
    """Two players of the league who are one person: ``drop``'s games become ``keep``'s."""

    keep: forms.ModelChoiceField[Player] = forms.ModelChoiceField(label=_("Player to keep"), queryset=None, empty_label=_("Pick a player"))
    drop: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        label=_("Duplicate to merge in"), queryset=None, empty_label=_("Pick a player")
    )

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("keep", "drop"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = Player.objects.filter(league=league)
            field.widget.attrs["class"] = "form-select"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # BaseForm.clean returns cleaned_data.
        if data.get("keep") and data.get("drop") and data["keep"] == data["drop"]:
            self.add_error("drop", _("Pick two different players."))
        return data
