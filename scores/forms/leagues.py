"""A league's settings and house rules, and the filters of its standings and games list."""

from __future__ import annotations

import functools

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import rules
from ..models import Game, GoingOut, League
from ..selectors.standings import COLUMNS
from .games import RulesForm


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = ["name"]
        labels = {"name": _("League name")}


class LeagueRulesForm(RulesForm):
    """The league's usual variant, target and house rules, which its new games start with; a game already started
    keeps its own."""

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, defaults=league.rules, **kwargs)
        self.league = league

    def save(self) -> League:
        fields = League.fields_of(self.cleaned_data["rules"])
        for name, value in fields.items():
            setattr(self.league, name, value)
        self.league.save(update_fields=list(fields))
        return self.league


class DateRangeForm(forms.Form):
    """A season: games played from ``start`` to ``end``, both included and both optional."""

    # A date input's value is always YYYY-MM-DD, whatever the language (Italian would write 29/11/2026).
    start = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def clean(self) -> dict:
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("The end date is before the start date."))
        return data


class StandingsForm(DateRangeForm):
    """The standings' query parameters: sort column, direction, season and kind of game."""

    MODES = [("", _("All games")), ("solo", _("Solo")), ("partnership", _("Partnership"))]

    mode = forms.ChoiceField(label=_("Games"), choices=MODES, required=False)
    sort = forms.ChoiceField(choices=[], required=False, widget=forms.HiddenInput)
    order = forms.ChoiceField(choices=[("desc", "desc"), ("asc", "asc")], required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["sort"].choices = [(c.key, c.label) for c in COLUMNS]

    @functools.cached_property
    def query(self) -> dict:
        """The standings asked for (``selectors.standings``' arguments): the defaults for what the query leaves out,
        and for all of it when it is not understood (the form then says why)."""
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        season = {"start": data.get("start"), "end": data.get("end"), "mode": data.get("mode") or ""}
        return {**season, "sort": data.get("sort") or "points", "descending": data.get("order") != "asc"}

    @property
    def headers(self) -> list[dict]:
        """Each column with the order a click on it asks for: the sorted column turned round; a new column high to
        low, names A to Z."""
        sort, descending = self.query["sort"], self.query["descending"]
        headers = []
        for column in COLUMNS:
            first = "asc" if column.key == "name" else "desc"
            order = ("asc" if descending else "desc") if column.key == sort else first
            headers.append({"column": column, "order": order, "sorted": column.key == sort})
        return headers


def _yes(value: str) -> bool:
    return value == "yes"


class GameFilterForm(DateRangeForm):
    STATUSES = [("", _("Any")), *Game.Status.choices]

    player = forms.ModelChoiceField(label=_("Player"), queryset=None, required=False, empty_label=_("Anyone"))
    status = forms.ChoiceField(label=_("Status"), choices=STATUSES, required=False)
    # The house rules, to compare games played by the same ones: "" is any.
    going_out = forms.ChoiceField(label=_("Going out"), choices=[("", _("Any")), *GoingOut.choices], required=False)
    min_bid = forms.TypedChoiceField(
        label=_("Minimum bid"), choices=[("", _("Any")), *((b, str(b)) for b in rules.MIN_BIDS)], coerce=int, required=False
    )
    steal = forms.TypedChoiceField(
        label=_("Dealer's steal"), choices=[("", _("Any")), ("yes", _("Allowed")), ("no", _("Not allowed"))], coerce=_yes, required=False
    )
    smudge = forms.TypedChoiceField(
        label=_("Smudge"), choices=[("", _("Any")), ("yes", _("On")), ("no", _("Off"))], coerce=_yes, required=False
    )
    field_order = ["player", "status", "start", "end", "going_out", "min_bid", "steal", "smudge"]

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = league.players.all()
