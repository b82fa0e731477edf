"""A league's settings and house rules, and the filters of its standings, games list and player pages."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ...common.forms import ShortRefusals
from ...engine import rules
from ...engine.problems import variant_name
from ...standings.models import Season
from ...standings.selectors.seasons import current_season, seasons
from ...standings.selectors.standings import COLUMNS
from ...table.forms.games import NameField, RulesForm
from ...table.models import Game
from ..models import GoingOut, League, Player


class LeagueForm(ShortRefusals, forms.ModelForm):
    name = NameField.of(League, label=_("League name"))

    class Meta:
        model = League
        fields = ["name"]


class LeagueRulesForm(RulesForm):
    """The league's usual variant, target and house rules, which its new games start with; a game already started
    keeps its own."""

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, defaults=league.rules, **kwargs)
        self.league = league


class DateRangeForm(ShortRefusals, forms.Form):
    """A range of days: games played from ``start`` to ``end``, both included and both optional."""

    # A date input's value is always YYYY-MM-DD, whatever the language (Italian would write 29/11/2026).
    start = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # BaseForm.clean returns cleaned_data.
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("The end date is before the start date."))
        return data


def _variant_choices(variants: Sequence[str], every: str) -> list[tuple[str, str]]:
    return [("", every), *((name, variant_name(name)) for name in variants)]


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
        season = self.fields["season"]
        assert isinstance(season, forms.ChoiceField)
        season.choices = [*((str(s.pk), s.name) for s in self.seasons), (self.ALL, _("All time"))]
        season.initial = default

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
    """The standings' query parameters: sort column, direction, season, kind of game and variant.

    ``variants``: those the league has games of; the variant filter is offered only when there are several."""

    MODES = [("", _("All games")), ("solo", _("Solo")), ("partnership", _("Partnership"))]

    mode = forms.ChoiceField(label=_("Games"), choices=MODES, required=False)
    variant = forms.ChoiceField(label=_("Variant"), choices=[], required=False)
    # Set by a column's heading, not typed: a refusal says what the page calls the columns (``standings``' "columns").
    sort = forms.ChoiceField(
        choices=[],
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("The standings have no column “%(value)s” to sort by.")},
    )
    order = forms.ChoiceField(
        choices=[("desc", "desc"), ("asc", "asc")],
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("The standings cannot be sorted “%(value)s”, only high to low or low to high.")},
    )

    def __init__(self, data=None, *args, league: League, variants: Sequence[str] = (), **kwargs) -> None:
        super().__init__(data, *args, league=league, **kwargs)
        sort, variant = self.fields["sort"], self.fields["variant"]
        assert isinstance(sort, forms.ChoiceField) and isinstance(variant, forms.ChoiceField)
        sort.choices = [(c.key, c.key) for c in COLUMNS]  # Hidden, its choices unread: the page names the headings.
        if len(variants) > 1:
            variant.choices = _variant_choices(variants, gettext("All variants"))
        else:
            del self.fields["variant"]

    @functools.cached_property
    def _data(self) -> dict:
        return self.cleaned_data if self.is_bound and self.is_valid() else {}

    @property
    def games(self) -> dict:
        """Which games the standings count: the season (``chosen``), the kind of game and the variant; all of them
        for what the query leaves out, or when it is not understood (the form then says why)."""
        data = self._data
        return {"season": self.chosen, "mode": data.get("mode") or "", "variant": data.get("variant") or ""}

    @property
    def query(self) -> dict:
        """The standings asked for (``selectors.standings_table``'s arguments): ``games`` and the sort, by points by default."""
        return {**self.games, "sort": self._data.get("sort") or "points", "descending": self._data.get("order") != "asc"}


def _yes(value: str) -> bool:
    return value == "yes"


class GameFilterForm(DateRangeForm):
    """The games list's filters; ``variants``: those the league has games of (the variant filter is offered only
    when there are several)."""

    STATUSES = [("", _("Any")), *Game.Status.choices]

    player: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        label=_("Player"), queryset=None, required=False, empty_label=_("Anyone")
    )
    status = forms.ChoiceField(label=_("Status"), choices=STATUSES, required=False)
    variant = forms.ChoiceField(label=_("Variant"), choices=[], required=False)
    # The house rules, to compare games played by the same ones: "" is any.
    going_out = forms.ChoiceField(label=_("Going out"), choices=[("", _("Any")), *GoingOut.choices], required=False)
    min_bid = forms.TypedChoiceField(
        label=_("Minimum bid"), choices=[("", _("Any")), *((b, str(b)) for b in range(1, rules.MAX_TOTAL + 1))], coerce=int, required=False
    )
    steal = forms.TypedChoiceField(
        label=_("Dealer's steal"), choices=[("", _("Any")), ("yes", _("Allowed")), ("no", _("Not allowed"))], coerce=_yes, required=False
    )
    smudge = forms.TypedChoiceField(
        label=_("Smudge"), choices=[("", _("Any")), ("yes", _("On")), ("no", _("Off"))], coerce=_yes, required=False
    )
    negative = forms.TypedChoiceField(
        label=_("Scores below zero"), choices=[("", _("Any")), ("yes", _("Allowed")), ("no", _("Not allowed"))], coerce=_yes, required=False
    )
    field_order = ["player", "status", "start", "end", "variant", "going_out", "min_bid", "steal", "smudge", "negative"]
    RULES = ("variant", "going_out", "min_bid", "steal", "smudge", "negative")

    def __init__(self, *args, league: League, variants: Sequence[str] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        player, variant = self.fields["player"], self.fields["variant"]
        assert isinstance(player, forms.ModelChoiceField) and isinstance(variant, forms.ChoiceField)
        player.queryset = league.players.all()
        if len(variants) > 1:
            variant.choices = _variant_choices(variants, gettext("Any"))
        else:
            del self.fields["variant"]


class NewSeasonForm(ShortRefusals, forms.Form):
    """A new season: its name, and the day its games start (games played from then on are its)."""

    name = NameField.of(Season, label=_("Name of the season"))
    starts_on = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["starts_on"].initial = timezone.localdate()
        for field in self.fields.values():
            field.widget.attrs["class"] = "form-control"


class SeasonNameForm(ShortRefusals, forms.Form):
    name = NameField.of(Season, label=_("New name"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["class"] = "form-control"
