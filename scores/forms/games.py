"""Starting a game: who plays and where they sit, solo or partnership, the target, house rules and first dealer; and what the
game page's address asks for."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .. import rules
from ..models import Game, GoingOut, League, Player
from ..names import clean as clean_name
from ..names import key as name_key
from . import ShortRefusals
from .hands import read_restore_token

TARGETS = (7, 11, 15, 21)


OTHER = "other"


NEW_NAME_ROWS = 7


class PlayerChoiceField(forms.ModelMultipleChoiceField):
    """League players by id; an id no database row can have is refused before it reaches the database."""

    def _check_values(self, value):
        for pk in value:
            try:
                ok = 0 < int(str(pk)) < 2**63
            except ValueError:
                ok = True  # Not a number: Django's own check says so.
            if not ok:
                raise forms.ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": pk})
        return super()._check_values(value)


class NameField(forms.CharField):
    """A player's or team's name in its normal form (``scores.names``).

    Too long is refused with the length, never cut: the field has no maxlength, with which a browser
    cuts a pasted name without a word, and the length is the normal form's, which is what is stored.
    """

    max_name_length = Player._meta.get_field("name").max_length

    def to_python(self, value: object) -> str:
        return clean_name(super().to_python(value))

    def validate(self, value: str) -> None:
        super().validate(value)
        if len(value) > self.max_name_length:
            raise forms.ValidationError(
                _("The name is %(length)s characters long; at most %(max)s fit."),
                code="max_length",
                params={"length": len(value), "max": self.max_name_length},
            )


HOUSE_RULES = ("going_out", "min_bid", "steal", "smudge")


def _house_rule(label, choices, coerce=str) -> forms.TypedChoiceField:
    """A house rule as tap buttons; left out of a post, it is the league's default (see ``NewGameForm.clean``)."""
    return forms.TypedChoiceField(label=label, choices=choices, coerce=coerce, required=False, empty_value=None, widget=forms.RadioSelect)


def _yes_no(value: str) -> bool:
    return value == "yes"


class NewGameForm(ShortRefusals, forms.Form):
    """Who plays, where they sit, solo or partnership, the target, the house rules and the first dealer.

    The target and the house rules start as the league's defaults.

    Each player row has an optional seat number; without one, players sit in
    the order of the list (league players first, then new names).
    """

    players = PlayerChoiceField(
        label=_("League players"), queryset=Player.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    mode = forms.ChoiceField(
        label=pgettext_lazy("mode of play", "Play"),
        choices=[("solo", _("Solo")), ("partnership", _("Partnership"))],
        initial="solo",
        widget=forms.RadioSelect,
    )
    team1 = NameField(label=_("Team of seats 1 and 3"), required=False, initial=_("Team 1"))
    team2 = NameField(label=_("Team of seats 2 and 4"), required=False, initial=_("Team 2"))
    target = forms.ChoiceField(
        label=_("Play to"),
        choices=[*((str(t), str(t)) for t in TARGETS), (OTHER, _("Other"))],
        initial="7",
        widget=forms.RadioSelect,
    )
    other_target = forms.IntegerField(label=_("Other target"), min_value=rules.MIN_TARGET, max_value=rules.MAX_TARGET, required=False)
    going_out = _house_rule(_("Going out"), GoingOut.choices)
    min_bid = _house_rule(_("Minimum bid"), [(b, str(b)) for b in rules.MIN_BIDS], coerce=int)
    steal = _house_rule(_("Dealer's steal"), [("yes", _("Allowed")), ("no", _("Not allowed"))], coerce=_yes_no)
    smudge = _house_rule(_("Smudge: bid 4 and win all four points to win the game"), [("no", _("Off")), ("yes", _("On"))], coerce=_yes_no)
    # Choices as a callable, so "Seat 1" is written in the page's language, not the one active at import.
    first_dealer = forms.TypedChoiceField(
        label=_("Who deals first"),
        coerce=int,
        choices=lambda: [(i, gettext("Seat %(number)s") % {"number": i}) for i in range(1, rules.MAX_PLAYERS + 1)],
        initial=1,
    )

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.league_defaults = league.rules
        defaults = league.rules.as_dict()
        for key in ("steal", "smudge"):
            defaults[key] = "yes" if defaults[key] else "no"
        target = defaults.pop("target")
        defaults |= {"target": str(target)} if target in TARGETS else {"target": OTHER, "other_target": target}
        self.initial = {**defaults, **self.initial}
        self.league_players = list(Player.objects.filter(league=league))
        self.fields["players"].queryset = Player.objects.filter(league=league)
        seat_choices = [("", _("Seat")), *((i, str(i)) for i in range(1, rules.MAX_PLAYERS + 1))]
        for player in self.league_players:
            self.fields[f"seat_{player.pk}"] = forms.TypedChoiceField(
                label=_("Seat for %(name)s") % {"name": player.name}, choices=seat_choices, coerce=int, required=False, empty_value=None
            )
        for i in range(1, NEW_NAME_ROWS + 1):
            self.fields[f"new_{i}"] = NameField(label=_("New player %(number)s") % {"number": i}, required=False)
            self.fields[f"new_seat_{i}"] = forms.TypedChoiceField(
                label=_("Seat for new player %(number)s") % {"number": i},
                choices=seat_choices,
                coerce=int,
                required=False,
                empty_value=None,
            )

        for name, field in self.fields.items():
            if isinstance(field.widget, forms.Select) and not isinstance(field.widget, forms.RadioSelect):
                field.widget.attrs["class"] = "form-select seat-select" if "seat" in name else "form-select"
            elif isinstance(field.widget, forms.TextInput | forms.NumberInput):
                field.widget.attrs["class"] = "form-control"

    def player_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """Each league player's checkbox with its seat field, for the template."""
        checkboxes = {str(box.data["value"]): box for box in self["players"]}
        return [(checkboxes[str(p.pk)], self[f"seat_{p.pk}"]) for p in self.league_players]

    def new_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"new_{i}"], self[f"new_seat_{i}"]) for i in range(1, NEW_NAME_ROWS + 1)]

    def league_players_typed(self) -> list[tuple[str, str]]:
        """The names typed as new players that are league players already: (as typed, the player's name)."""
        known = {name_key(p.name): p.name for p in self.league_players}
        typed = (self.cleaned_data.get(f"new_{i}") for i in range(1, NEW_NAME_ROWS + 1))
        return [(name, known[name_key(name)]) for name in typed if name and name_key(name) in known]

    def clean(self) -> dict:
        data = super().clean()
        chosen: list[tuple[int | None, str]] = [(data.get(f"seat_{p.pk}"), p.name) for p in data.get("players") or ()]
        for i in range(1, NEW_NAME_ROWS + 1):
            name = (data.get(f"new_{i}") or "").strip()
            if name:
                chosen.append((data.get(f"new_seat_{i}"), name))
        # A seat number puts a player there; the rest fill in, in list order, after them.
        numbered = sorted((seat, i) for i, (seat, _name) in enumerate(chosen) if seat is not None)
        seats = [chosen[i][1] for _seat, i in numbered] + [n for s, n in chosen if s is None]
        if len({s for s, _name in chosen if s is not None}) != len(numbered):
            self.add_error(None, gettext("Two players have the same seat number."))
        data["seats"] = seats
        # Fields read for one choice only (the page hides them for the others): what is left in them otherwise is no error.
        if data.get("target") != OTHER:
            self.errors.pop("other_target", None)
        if data.get("mode") != "partnership":
            self.errors.pop("team1", None)
            self.errors.pop("team2", None)
        if data.get("target") == OTHER:
            if data.get("other_target") is None:
                self.add_error("other_target", gettext("Type the target, or pick 7, 11, 15 or 21."))
            data["target_points"] = data.get("other_target")
        elif data.get("target"):
            data["target_points"] = int(data["target"])
        partnership = data.get("mode") == "partnership"
        data["teams"] = ()
        if partnership:
            if len(seats) != 4:
                self.add_error("mode", gettext("Partnership play needs exactly 4 players."))
            else:
                names = [(data.get("team1") or "").strip(), (data.get("team2") or "").strip()]
                for field, name in zip(("team1", "team2"), names, strict=True):
                    if not name:
                        self.add_error(field, gettext("Give the team a name."))
                data["teams"] = ((names[0], (seats[0], seats[2])), (names[1], (seats[1], seats[3])))
        # A house rule the post leaves out is the league's default; a wrong one is refused by its field.
        data["house_rules"] = {key: getattr(self.league_defaults, key) if data.get(key) is None else data[key] for key in HOUSE_RULES}
        dealer = data.get("first_dealer")
        if dealer is not None and seats and dealer > len(seats):
            self.add_error("first_dealer", gettext("There are only %(count)s players.") % {"count": len(seats)})
        data["dealer_name"] = seats[dealer - 1] if dealer is not None and dealer <= len(seats) else None
        return data


class GamePageForm(ShortRefusals, forms.Form):
    """What the game page's address may ask for besides the auction (``AuctionResultForm``): ``part=chart``, the
    score chart alone (htmx, after the scores changed), and ``restore``, the token of a hand just undone without
    JavaScript, offered while the game is as the undo left it. What it does not understand shows the page as it is."""

    part = forms.ChoiceField(choices=[("chart", "chart")], required=False)
    restore = forms.CharField(required=False, max_length=4000)

    def __init__(self, *args, game: Game, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game

    def clean_restore(self) -> str:
        token = self.cleaned_data["restore"]
        if token and read_restore_token(token, self.game.pk)["version"] != self.game.version:
            raise forms.ValidationError("the game changed since the undo", code="stale")
        return token

    @property
    def chart(self) -> bool:
        """Whether the address asks for the score chart alone."""
        return not self.has_error("part") and self.cleaned_data.get("part") == "chart"

    @property
    def restore_token(self) -> str:
        """Restore's token, to offer it again; "" when there is none to offer."""
        return "" if self.has_error("restore") else self.cleaned_data.get("restore", "")
