"""A card night: who is present, how the night seats them, its rules and rounds; the next round; a table's scorer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ..common.forms import ShortRefusals
from ..engine import planner, rules, whist
from ..engine.names import key as name_key
from ..engine.problems import excerpt, words
from ..leagues.models import League, Membership, Player, Role, roles_at_least
from ..table.forms.games import NameField, PlayerChoiceField, archived_refusal
from .models import Night

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class PresentForm(ShortRefusals, forms.Form):
    """Who is present: league players ticked, and new players (guests) typed, a name a line."""

    players = PlayerChoiceField(
        label=_("Players present"), queryset=Player.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    guests = forms.CharField(
        label=_("New players (guests), one name a line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "class": "form-control"}),
        help_text=_("A name the league already has is that player."),
    )

    def __init__(self, *args, league: League, also: Sequence[Player] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.league = league
        self.also = also
        # Archived players are not offered, unless they are present already (``also``).
        players = self.fields["players"]
        assert isinstance(players, PlayerChoiceField)
        players.offer(league, also=also)

    def clean_guests(self) -> list[str]:
        field = NameField()
        names = []
        for line in self.cleaned_data["guests"].splitlines():
            if line.strip():
                try:
                    names.append(field.clean(line))
                except forms.ValidationError as error:
                    raise forms.ValidationError(
                        gettext("“%(name)s”: %(problem)s") % {"name": excerpt(line.strip()), "problem": " ".join(error.messages)}
                    ) from None
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # BaseForm.clean returns cleaned_data.
        players = list(data.get("players") or ())
        known = {name_key(p.name) for p in players}
        guests = []
        for name in data.get("guests") or ():
            if name_key(name) not in known:  # A name typed twice, or a ticked player's, is one player.
                known.add(name_key(name))
                guests.append(name)
        data["guests"] = guests
        if guests:  # Typed, an archived player would be seated all the same.
            archived = Player.objects.filter(league=self.league, archived=True).exclude(pk__in=[p.pk for p in self.also])
            if typed := [player.name for player in archived if name_key(player.name) in known]:
                self.add_error("guests", archived_refusal(typed))
        count = len(players) + len(guests)
        if "players" not in self.errors and "guests" not in self.errors and not planner.MIN_PLAYERS <= count <= planner.MAX_PLAYERS:
            self.add_error(
                "players",
                ngettext(
                    "A card night seats %(min)s to %(max)s players: %(count)s is ticked or typed.",
                    "A card night seats %(min)s to %(max)s players: %(count)s are ticked or typed.",
                    count,
                )
                % {"min": planner.MIN_PLAYERS, "max": planner.MAX_PLAYERS, "count": count},
            )
        data["count"] = count
        return data


def layout_text(count: int, seating: planner.Seating) -> str:
    """How ``count`` players are seated each round, in words: "9 players: 2 tables of four and 1 sitting out"."""
    shape = planner.layout(count, seating)
    parts = []
    if shape.fours:
        parts.append(ngettext("%(n)s table of four", "%(n)s tables of four", shape.fours) % {"n": shape.fours})
    for size in sorted(set(shape.solo), reverse=True):
        n = shape.solo.count(size)
        parts.append(ngettext("%(n)s solo table of %(size)s", "%(n)s solo tables of %(size)s", n) % {"n": n, "size": size})
    if shape.byes:
        parts.append(ngettext("%(n)s sitting out", "%(n)s sitting out", shape.byes) % {"n": shape.byes})
    return gettext("%(count)s players: %(tables)s") % {"count": count, "tables": words(parts)}


class NightForm(PresentForm):
    """A new card night: its name and day, who is present, how it seats them, its target and how many rounds."""

    MODES = [("partnership", _("Partnership: tables of four, two teams of two")), ("solo", _("Solo tables"))]

    name = NameField.of(Night, label=_("Name of the night"))
    played_on = forms.DateField(label=_("Day"), widget=forms.DateInput(attrs={"type": "date", "class": "form-control"}, format="%Y-%m-%d"))
    mode = forms.ChoiceField(label=_("Tables"), choices=MODES, initial="partnership", widget=forms.RadioSelect)
    solo_size = forms.TypedChoiceField(
        label=_("Players at a solo table, at most"),
        choices=[(n, str(n)) for n in range(planner.MIN_SOLO_SIZE, planner.MAX_SOLO_SIZE + 1)],
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
    )
    leftover = forms.ChoiceField(
        label=_("When the tables of four leave one or two players over"),
        choices=Night.Leftover.choices,
        initial="solo",
        widget=forms.RadioSelect,
    )
    rotation = forms.BooleanField(
        label=_("A full rotation: everyone partners everyone once"),
        required=False,
        help_text=_(
            "Tables of four, and as many rounds as that takes: one fewer than the players, or as many when one sits out each round."
        ),
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=planner.MAX_ROUNDS, initial=3, required=False)
    target = forms.IntegerField(label=_("Play to"), min_value=rules.MIN_TARGET, max_value=rules.MAX_TARGET)
    hands_per_round = forms.IntegerField(
        label=_("Or a round is this many hands"),
        required=False,
        min_value=rules.MIN_HANDS,
        max_value=rules.MAX_HANDS,
        help_text=_(
            "Every table plays that many hands, so the round ends together; the side ahead wins, a tie is played off a hand at a "
            "time, and the night's standings rank by points. Leave it empty to play each table's game to the target."
        ),
    )
    field_order = [
        *("name", "played_on", "players", "guests", "mode", "solo_size", "leftover", "rotation", "rounds", "target", "hands_per_round")
    ]

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, league=league, **kwargs)
        self.fields["name"].initial = gettext("Card night")
        self.fields["played_on"].initial = timezone.localdate()
        self.fields["target"].initial = league.target
        for name in ("name", "rounds", "target", "hands_per_round"):
            self.fields[name].widget.attrs["class"] = "form-control"
        out_of_range = gettext("A round is %(min)s to %(max)s hands; leave it empty to play to the target.")
        self.fields["hands_per_round"].error_messages.update(
            dict.fromkeys(("invalid", "min_value", "max_value"), out_of_range % {"min": rules.MIN_HANDS, "max": rules.MAX_HANDS})
        )
        self.fields["rotation"].widget.attrs["class"] = "form-check-input"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("rotation"):
            self._clean_rotation(data)
        elif data.get("rounds") is None and "rounds" not in self.errors:
            self.add_error("rounds", self.fields["rounds"].error_messages["required"])
        if data.get("mode") and data.get("solo_size") and data.get("leftover"):
            partnership = data["mode"] == "partnership"
            data["seating"] = planner.Seating(partnership=partnership, solo_size=data["solo_size"], leftover=data["leftover"])
            if not self.errors:
                data["layout"] = layout_text(data["count"], data["seating"])
        if data.get("target") is not None:
            hands = data.get("hands_per_round")
            data["rules"] = rules.Rules(**{**self.league.rules.as_dict(), "target": data["target"], "hands": hands})
        return data

    def _clean_rotation(self, data: dict[str, Any]) -> None:
        """A full rotation sets the rounds, and sits one player out each round for 4k + 1 players; it needs
        partnership tables and a count that has one."""
        if data.get("mode") == "solo":
            self.add_error("rotation", gettext("A full rotation seats partnership tables of four: choose those, or no full rotation."))
        elif "players" not in self.errors and "guests" not in self.errors and not whist.exists(count := data["count"]):
            self.add_error(
                "rotation",
                ngettext(
                    "A full rotation needs 4k or 4k+1 players (4, 5, 8, 9, 12, 13, …, 28): %(count)s is ticked or typed.",
                    "A full rotation needs 4k or 4k+1 players (4, 5, 8, 9, 12, 13, …, 28): %(count)s are ticked or typed.",
                    count,
                )
                % {"count": count},
            )
        else:
            self.errors.pop("rounds", None)
            data["rounds"] = whist.length(data["count"])
            data["leftover"] = "byes"


class NextRoundForm(PresentForm):
    """The next round: who is present now (the last round's players ticked), and which round it is (so a second press
    of the button starts nothing)."""

    number = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        max_value=planner.MAX_ROUNDS,
        error_messages={
            key: _("The page did not say which round it starts: reload it and try again.")
            for key in ("required", "invalid", "min_value", "max_value")
        },
    )
    unfinished = forms.BooleanField(label=_("Start it even though a table is still playing"), required=False)


class TableScorerForm(ShortRefusals, forms.Form):
    """Who records a table's hands besides the owners: one of the league's scorers or owners, or nobody."""

    scorer: forms.ModelChoiceField[User] = forms.ModelChoiceField(
        label=_("Scorer"), queryset=None, required=False, empty_label=_("The owners only")
    )

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        members = Membership.objects.filter(league=league, role__in=roles_at_least(Role.SCORER)).values("user_id")
        scorer = self.fields["scorer"]
        assert isinstance(scorer, forms.ModelChoiceField)
        scorer.queryset = get_user_model().objects.filter(pk__in=members).order_by("username")
        self.fields["scorer"].widget.attrs["class"] = "form-select"
