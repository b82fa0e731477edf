"""A league's settings and house rules, and the filters of its standings, games list and player pages."""

from __future__ import annotations

import datetime
import functools

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .. import rules
from ..models import Game, GoingOut, League, Season
from ..selectors.seasons import current_season, seasons
from ..selectors.standings import COLUMNS
from . import ShortRefusals


class LeagueForm(ShortRefusals, forms.ModelForm):
    class Meta:
        model = League
        fields = ["name"]
        labels = {"name": _("League name")}


class LeagueRulesForm(ShortRefusals, forms.ModelForm):
    """The house rules a league's new games start with; a game already started keeps its own."""

    target = forms.IntegerField(label=_("Play to"), min_value=rules.MIN_TARGET, max_value=rules.MAX_TARGET)

    class Meta:
        model = League
        fields = ["target", "going_out", "min_bid", "steal", "smudge"]
        labels = {"steal": _("The dealer may steal the bid")}
        widgets = {"going_out": forms.RadioSelect, "min_bid": forms.RadioSelect}


class DateRangeForm(ShortRefusals, forms.Form):
    """A range of days: games played from ``start`` to ``end``, both included and both optional."""

    # A date input's value is always YYYY-MM-DD, whatever the language (Italian would write 29/11/2026).
    start = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def clean(self) -> dict:
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("The end date is before the start date."))
        return data


class SeasonForm(ShortRefusals, forms.Form):
    """Which season a page shows (``?season=``): one of the league's by its id, or "all" (all time). An address
    without one shows the current season, or all time while the league has none."""

    ALL = "all"

    season = forms.ChoiceField(label=_("Season"), required=False)

    def __init__(self, data=None, *args, league: League, **kwargs) -> None:
        self.seasons = seasons(league)
        self.current = current_season(self.seasons, timezone.localdate())
        default = str(self.current.pk) if self.current else self.ALL
        if data is not None and not data.get("season"):
            data = data.copy()  # So the menu shows the season the page shows.
            data["season"] = default
        super().__init__(data, *args, **kwargs)
        self.fields["season"].choices = [*((str(s.pk), s.name) for s in self.seasons), (self.ALL, _("All time"))]
        self.fields["season"].initial = default

    @functools.cached_property
    def chosen(self) -> Season | None:
        """The season shown: the one asked for (the current one when the address is not understood); None: all time."""
        value = self.cleaned_data.get("season") if self.is_bound and not self.has_error("season") else self["season"].initial
        return next((season for season in self.seasons if str(season.pk) == value), None)

    @property
    def dates(self) -> tuple[datetime.date | None, datetime.date | None]:
        """The first and last day of the season shown (None: open that way)."""
        return (self.chosen.starts_on, self.chosen.ends_on) if self.chosen else (None, None)


class StandingsForm(SeasonForm):
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
        season = {"season": self.chosen, "mode": data.get("mode") or ""}
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


class NewSeasonForm(ShortRefusals, forms.Form):
    """A new season: its name, and the day its games start (games played from then on are its)."""

    name = forms.CharField(label=_("Name of the season"), max_length=Season._meta.get_field("name").max_length)
    starts_on = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["starts_on"].initial = timezone.localdate()
        for field in self.fields.values():
            field.widget.attrs["class"] = "form-control"

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())


class SeasonNameForm(ShortRefusals, forms.Form):
    name = forms.CharField(label=_("New name"), max_length=Season._meta.get_field("name").max_length)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["class"] = "form-control"

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())
