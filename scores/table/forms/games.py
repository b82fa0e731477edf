"""Starting a game: who plays and where they sit, solo or in teams, the variant, target, house rules and first dealer;
the rules a league's games start with; and what the game page's address asks for."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.db import models
from django.db.models import Q
from django.forms.boundfield import BoundWidget
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from ...common.forms import ShortRefusals
from ...engine import rules
from ...engine.names import MAX_LENGTH as MAX_NAME_LENGTH
from ...engine.names import clean as clean_name
from ...engine.names import key as name_key
from ...engine.problems import point_name, variant_name, words
from ...leagues.models import GoingOut, League, Player
from ..models import Game
from .hands import add_problems, read_restore_token

TARGETS = (7, 11, 15, 21, 52)  # The targets tables play to; any other is typed.
USUAL = "usual"  # The target or minimum bid the variant usually has: right for any variant picked, with or without JavaScript.
OTHER = "other"
NEW_NAME_ROWS = 7
# Partnership play: the team shapes (teams, players in each), by the value the form posts for them.
SHAPES = {f"{teams}x{size}": (teams, size) for teams, size in rules.TEAM_SHAPES}
MAX_TEAMS = max(teams for teams, _size in rules.TEAM_SHAPES)


def archived_refusal(names: Sequence[str]) -> str:
    """Why these archived players cannot be seated in something new, and how they can be."""
    return ngettext(
        "%(names)s is archived: bring them back on the people page to seat them.",
        "%(names)s are archived: bring them back on the people page to seat them.",
        len(names),
    ) % {"names": words(names)}


class PlayerChoiceField(forms.ModelMultipleChoiceField):
    """League players by id, those ``offer`` offers; an id no database row can have is refused before it reaches the
    database, and one of the league's archived players (a crafted post, or a page shown before the archiving) by name."""

    league: League | None = None

    def offer(self, league: League, *, also: Iterable[Player] = ()) -> None:
        """Offer the league's players who are not archived, and ``also`` (archived, but seated already)."""
        self.league = league
        self.queryset = Player.objects.filter(league=league).filter(Q(archived=False) | Q(pk__in=[p.pk for p in also]))

    def _check_values(self, value):
        pks = []
        for pk in value:
            try:
                number = int(str(pk))
            except ValueError:
                continue  # Not a number: Django's own check says so.
            if not 0 < number < 2**63:
                raise forms.ValidationError(self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": pk})
            pks.append(number)
        try:
            return super()._check_values(value)
        except forms.ValidationError as error:
            if error.code != "invalid_choice" or self.league is None:
                raise
            archived = Player.objects.filter(league=self.league, archived=True, pk__in=pks).exclude(pk__in=self.queryset.values("pk"))
            if names := [player.name for player in archived]:
                raise forms.ValidationError(archived_refusal(names), code="archived") from None
            raise


class NameField(forms.CharField):
    """A name a person types (a player's, a team's, a league's, a season's, a night's) in its normal form
    (``scores.engine.names``): control, zero-width and direction characters out, inner spaces folded.

    Too long is refused with the length, never cut: the field has no maxlength, with which a browser
    cuts a pasted name without a word, and the length is the normal form's, which is what is stored
    (``longest``: the model field's max_length). A name of invisible characters alone would show as
    nothing: it is refused, not taken as no name.
    """

    def __init__(self, *, longest: int = MAX_NAME_LENGTH, **kwargs) -> None:
        super().__init__(**kwargs)
        self.longest = longest

    @classmethod
    def of(cls, model: type[models.Model], **kwargs) -> NameField:
        """The field for the ``name`` of ``model`` (a league, a season, a night), as long as its column."""
        field = model._meta.get_field("name")
        assert isinstance(field, models.CharField) and field.max_length is not None  # A name is a CharField, which has one.
        return cls(longest=field.max_length, **kwargs)

    def to_python(self, value: object) -> str:
        text = super().to_python(value)
        assert text is not None  # The empty value is CharField's own, "".
        name = clean_name(text)
        if text and not name:
            raise forms.ValidationError(_("The name shows as nothing: it has only invisible characters."), code="invisible")
        return name

    def validate(self, value: str) -> None:
        super().validate(value)
        if len(value) > self.longest:
            raise forms.ValidationError(
                _("The name is %(length)s characters long; at most %(max)s fit."),
                code="max_length",
                params={"length": len(value), "max": self.longest},
            )


HOUSE_RULES = ("going_out", "min_bid", "steal", "smudge", "negative")


def _house_rule(label, choices, coerce=str) -> forms.TypedChoiceField:
    """A house rule as tap buttons; left out of a post, it is the defaults' (see ``RulesForm.clean``)."""
    return forms.TypedChoiceField(label=label, choices=choices, coerce=coerce, required=False, empty_value=None, widget=forms.RadioSelect)


def _yes_no(value: str) -> bool:
    return value == "yes"


def point_label(point: rules.Point) -> str:
    """A point as the forms name it: as players say it, with its value where it is worth more than 1 ("Three (3)")."""
    name = point_name(point.key)
    return name if point.value == 1 else gettext("%(point)s (%(value)s)") % {"point": name, "value": point.value}


@dataclasses.dataclass(frozen=True)
class VariantChoice:
    """One choice of variant as the form shows it: its radio button, and for a named variant what it plays."""

    radio: BoundWidget
    variant: rules.Variant | None  # None: custom.

    @property
    def description(self) -> str:
        if self.variant is None:
            return gettext("Tick the points your table plays. Usually to %(target)s; the lowest bid is %(min_bid)s.") % {
                "target": rules.CUSTOM.target,
                "min_bid": rules.CUSTOM.min_bid,
            }
        return gettext("%(points)s (%(total)s points in a hand). Usually to %(target)s; the lowest bid is %(min_bid)s.") % {
            "points": ", ".join(point_label(point) for point in (rules.CATALOGUE[key] for key in self.variant.points)),
            "total": self.variant.total,
            "target": self.variant.target,
            "min_bid": self.variant.min_bid,
        }


class RulesForm(ShortRefusals, forms.Form):
    """The rules of a game: the variant (or the points of a custom game), the target and the house rules.

    Every choice starts as ``defaults`` (a league's usual rules). Each is a plain field, so the whole form works
    without JavaScript; the page's script only shows what belongs to the choices made (the points of a custom
    game, the minimum bids up to the game's total). The target and minimum bid offer "Usual", the variant's own,
    which is right for whichever variant is picked. A field left out of a post keeps the default's value (the
    variant's own when another variant is picked). ``cleaned_data["rules"]`` is the ``rules.Rules`` chosen.
    """

    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=lambda: [(name, variant_name(name)) for name in (*rules.VARIANTS, rules.CUSTOM.name)],
        required=False,
        widget=forms.RadioSelect,
    )
    points = forms.MultipleChoiceField(
        label=_("Points in a custom game"),
        choices=lambda: [(key, point_label(point)) for key, point in rules.CATALOGUE.items()],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    target = forms.ChoiceField(
        label=_("Play to"),
        choices=[(USUAL, _("Usual")), *((str(t), str(t)) for t in TARGETS), (OTHER, _("Other"))],
        required=False,
        widget=forms.RadioSelect,
    )
    other_target = forms.IntegerField(label=_("Other target"), min_value=rules.MIN_TARGET, max_value=rules.MAX_TARGET, required=False)
    going_out = _house_rule(_("Going out"), GoingOut.choices)
    min_bid = _house_rule(_("Minimum bid"), [(USUAL, _("Usual")), *((str(b), str(b)) for b in range(1, rules.MAX_TOTAL + 1))])
    steal = _house_rule(_("Dealer's steal"), [("yes", _("Allowed")), ("no", _("Not allowed"))], coerce=_yes_no)
    smudge = _house_rule(
        _("Smudge: bid the top bid and win every point to win the game"), [("no", _("Off")), ("yes", _("On"))], coerce=_yes_no
    )
    negative = _house_rule(_("Negative scores"), [("yes", _("Allowed")), ("no", _("Not allowed: a set stops at 0"))], coerce=_yes_no)

    def __init__(self, *args, defaults: rules.Rules, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.defaults = defaults
        usual = rules.VARIANTS.get(defaults.variant, rules.CUSTOM)
        initial: dict[str, object] = {
            "variant": defaults.variant,
            "points": list(defaults.points),
            "going_out": defaults.going_out,
            "min_bid": USUAL if defaults.min_bid == usual.min_bid else str(defaults.min_bid),
            **{key: "yes" if getattr(defaults, key) else "no" for key in ("steal", "smudge", "negative")},
        }
        if defaults.target == usual.target:
            initial["target"] = USUAL
        elif defaults.target in TARGETS:
            initial["target"] = str(defaults.target)
        else:
            initial |= {"target": OTHER, "other_target": defaults.target}
        self.initial = {**initial, **self.initial}
        self.fields["other_target"].widget.attrs["class"] = "form-control"

    def variant_choices(self) -> list[VariantChoice]:
        """Each variant's radio button with what it plays, for the template."""
        return [VariantChoice(radio, rules.VARIANTS.get(radio.data["value"])) for radio in self["variant"]]

    def point_boxes(self) -> list[tuple[BoundWidget, int]]:
        """Each point's checkbox for a custom game, with its value (the page adds up the total)."""
        return [(box, rules.CATALOGUE[box.data["value"]].value) for box in self["points"]]

    def custom_total(self) -> int:
        """The total of the points ticked for a custom game, as the page shows them now."""
        ticked = self["points"].value() or ()
        return sum(rules.CATALOGUE[key].value for key in ticked if key in rules.CATALOGUE)

    def chosen_rules(self) -> rules.Rules | None:
        """The rules chosen so far (the defaults before anything is posted); None while a choice is wrong."""
        if not self.is_bound:
            return self.defaults
        return self.cleaned_data.get("rules") if self.is_valid() or "rules" in self.cleaned_data else None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # BaseForm.clean returns cleaned_data.
        # Read for "Other" only (the page hides it for the other targets): what is left in it otherwise is no error.
        if data.get("target") != OTHER:
            self.errors.pop("other_target", None)
        # What a post leaves out is the default's; the default's target and minimum bid go with its own game only.
        variant = data.get("variant") or self.defaults.variant
        choice: dict[str, Any] = {"variant": variant}  # Rules' arguments, which it checks.
        if variant == rules.CUSTOM.name:
            choice["points"] = data.get("points") or (list(self.defaults.points) if not data.get("variant") else [])
            if not choice["points"]:
                self.add_error("points", gettext("Tick at least one point for a custom game."))
        same_game = variant == self.defaults.variant and tuple(choice.get("points", self.defaults.points)) == self.defaults.points
        for key in ("going_out", "steal", "smudge", "negative"):
            choice[key] = getattr(self.defaults, key) if data.get(key) is None else data[key]
        for key in ("target", "min_bid"):
            self._pick_number(data, choice, key, same_game=same_game)
        if any(name in self.errors for name in RulesForm.base_fields):
            return data
        total = sum(rules.CATALOGUE[key].value for key in choice.get("points") or rules.VARIANTS[variant].points)
        if choice.get("min_bid", 1) > total:
            message = gettext("The minimum bid can be at most %(total)s, the most a hand of this game awards.")
            self.add_error("min_bid", message % {"total": total})
            return data
        try:
            data["rules"] = rules.Rules(**choice)
        except rules.RulesError as error:
            add_problems(self, error, fields={"target": "other_target" if data.get("target") == OTHER else "target"})
        return data

    def _pick_number(self, data: dict[str, Any], choice: dict[str, Any], key: str, *, same_game: bool) -> None:
        """The target or the minimum bid (``key``) into ``choice``: as picked or typed ("Other"); the default's when the
        post leaves it out for the default's own game; else left out, for the variant's usual one."""
        picked = data.get(key)
        if picked == OTHER:
            choice[key] = data.get("other_target")
            if choice[key] is None and "other_target" not in self.errors:
                self.add_error("other_target", gettext("Type the target, or pick one."))
        elif picked and picked != USUAL:
            choice[key] = int(picked)
        elif not picked and same_game:
            choice[key] = getattr(self.defaults, key)


class RulesLineForm(RulesForm):
    """The new-game page's address asking for the rules line alone (``part=rules``), for the choices in the query, or
    for the seating preview alone (``part=seating``, ``NewGameForm.seating``)."""

    part = forms.ChoiceField(choices=[("rules", "rules"), ("seating", "seating")], required=False)

    @property
    def asked(self) -> bool:
        """Whether the address asks for the rules line alone."""
        return not self.has_error("part") and self.cleaned_data.get("part") == "rules"

    @property
    def seating(self) -> bool:
        """Whether the address asks for the seating preview alone."""
        return not self.has_error("part") and self.cleaned_data.get("part") == "seating"


def seat_order(chosen: Sequence[tuple[int | None, str]]) -> list[str]:
    """The order players sit in, from each one's seat number (or None) in the list's order: a seat number puts a
    player there (two with one number in list order); the rest fill in, in list order, after them."""
    numbered = sorted((seat, i) for i, (seat, _name) in enumerate(chosen) if seat is not None)
    return [chosen[i][1] for _seat, i in numbered] + [name for seat, name in chosen if seat is None]


@dataclasses.dataclass(frozen=True)
class SeatShown:
    """A seat of the new-game page's seating preview."""

    number: int
    name: str
    team: str  # "" in solo play.
    deals: bool


class NewGameForm(RulesForm):
    """Who plays, where they sit, solo or in teams, the rules and the first dealer.

    The rules start as the league's usual ones (``RulesForm``). Each player row has an optional seat number;
    without one, players sit in the order of the list (league players first, then new names). In partnership
    play the teams are the seats every T seats (``rules.partners``), named by the team name fields.
    ``cleaned_data`` gives what ``services.start_game`` takes: ``seats``, ``rules``, ``teams`` and ``first_dealer``
    (a name, or None).
    """

    players = PlayerChoiceField(
        label=_("League players"), queryset=Player.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    mode = forms.ChoiceField(
        label=pgettext_lazy("mode of play", "Play"),
        choices=[
            ("solo", _("Solo")),
            ("2x2", _("2 teams of 2")),
            ("3x2", _("3 teams of 2")),
            ("2x3", _("2 teams of 3")),
        ],
        initial="solo",
        widget=forms.RadioSelect,
    )
    # Choices as a callable, so "Seat 1" is written in the page's language, not the one active at import.
    first_dealer = forms.TypedChoiceField(
        label=_("Who deals first"),
        coerce=int,
        choices=lambda: [(i, gettext("Seat %(number)s") % {"number": i}) for i in range(1, rules.MAX_PLAYERS + 1)],
        initial=1,
    )
    field_order = ["players", "mode"]

    def __init__(self, *args, league: League, **kwargs) -> None:
        super().__init__(*args, defaults=league.rules, **kwargs)
        for i in range(1, MAX_TEAMS + 1):
            self.fields[f"team{i}"] = NameField(
                label=gettext("Name of team %(number)s") % {"number": i}, required=False, initial=gettext("Team %(number)s") % {"number": i}
            )
        every = list(Player.objects.filter(league=league))
        self.league_players = [player for player in every if not player.archived]  # Those offered.
        self.archived = {name_key(player.name): player.name for player in every if player.archived}
        players = self.fields["players"]
        assert isinstance(players, PlayerChoiceField)
        players.offer(league)
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

    def player_rows(self) -> list[tuple[BoundWidget, forms.BoundField]]:
        """Each league player's checkbox with its seat field, for the template."""
        checkboxes = {str(box.data["value"]): box for box in self["players"]}
        return [(checkboxes[str(p.pk)], self[f"seat_{p.pk}"]) for p in self.league_players]

    def new_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"new_{i}"], self[f"new_seat_{i}"]) for i in range(1, NEW_NAME_ROWS + 1)]

    def team_fields(self) -> list[forms.BoundField]:
        return [self[f"team{i}"] for i in range(1, MAX_TEAMS + 1)]

    def league_players_typed(self) -> list[tuple[str, str]]:
        """The names typed as new players that are league players already: (as typed, the player's name)."""
        known = {name_key(p.name): p.name for p in self.league_players}
        typed = (self.cleaned_data.get(f"new_{i}") for i in range(1, NEW_NAME_ROWS + 1))
        return [(name, known[name_key(name)]) for name in typed if name and name_key(name) in known]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = self._chosen(data)
        numbers = [seat for seat, _name in chosen if seat is not None]
        if len(set(numbers)) != len(numbers):
            self.add_error(None, gettext("Two players have the same seat number."))
        data["seats"] = seats = seat_order(chosen)
        data["teams"] = self._teams(data, seats)
        dealer = data.get("first_dealer")
        if dealer is not None and seats and dealer > len(seats):
            self.add_error("first_dealer", gettext("There are only %(count)s players.") % {"count": len(seats)})
        data["first_dealer"] = seats[dealer - 1] if dealer is not None and dealer <= len(seats) else None
        return data

    def _chosen(self, data: dict[str, Any]) -> list[tuple[int | None, str]]:
        """Each player picked or typed, with the seat number given them (or None), in the list's order."""
        chosen: list[tuple[int | None, str]] = [(data.get(f"seat_{p.pk}"), p.name) for p in data.get("players") or ()]
        for i in range(1, NEW_NAME_ROWS + 1):
            name = (data.get(f"new_{i}") or "").strip()
            if name_key(name) in self.archived:  # Typed, an archived player would be seated all the same.
                self.add_error(f"new_{i}", archived_refusal([self.archived[name_key(name)]]))
            elif name:
                chosen.append((data.get(f"new_seat_{i}"), name))
        return chosen

    def _teams(self, data: dict[str, Any], seats: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The teams the mode asks for, each named, with its players as the rules seat partners; none for solo play,
        or when the players seated do not make the teams."""
        shape = SHAPES.get(data.get("mode") or "")
        # The team names are read for the teams played only (the page hides the others): what is left in the others is no error.
        for i in range(shape[0] + 1 if shape else 1, MAX_TEAMS + 1):
            self.errors.pop(f"team{i}", None)
        if not shape:
            return ()
        count, size = shape
        if len(seats) != count * size:
            message = gettext("%(teams)s teams of %(size)s need exactly %(players)s players; %(count)s are seated.")
            self.add_error("mode", message % {"teams": count, "size": size, "players": count * size, "count": len(seats)})
            return ()
        names = [(data.get(f"team{i}") or "").strip() for i in range(1, count + 1)]
        for i, name in enumerate(names, start=1):
            if not name:
                self.add_error(f"team{i}", gettext("Give the team a name."))
        return tuple(zip(names, rules.partners(seats, count), strict=True))

    def seating(self) -> list[SeatShown]:
        """Who sits where as the form stands, refused or not (the page's seating preview): the order ``clean`` seats
        them in, each with their team in play in teams and whether they deal first."""
        self.is_valid()
        data = self.cleaned_data
        teams = {player: name for name, players in data.get("teams", ()) for player in players}
        dealer = data.get("first_dealer")
        return [SeatShown(n, name, teams.get(name, ""), name == dealer) for n, name in enumerate(data.get("seats", ()), start=1)]


class GamePageForm(ShortRefusals, forms.Form):
    """What the game page's address may ask for besides the auction (``AuctionResultForm``): ``part=chart``, the
    score chart alone (htmx, after the scores changed), and ``restore``, the token of a hand just undone without
    JavaScript, offered while the game is as the undo left it; ``paper=1``, the form of a result from paper open. What it
    does not understand shows the page as it is."""

    part = forms.ChoiceField(choices=[("chart", "chart")], required=False)
    restore = forms.CharField(required=False, max_length=4000)
    paper = forms.ChoiceField(choices=[("1", "1")], required=False)  # From "Record a game played on paper": its form open.

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
    def paper_open(self) -> bool:
        """Whether the address asks for the form of a result from paper, open."""
        return not self.has_error("paper") and self.cleaned_data.get("paper") == "1"

    @property
    def restore_token(self) -> str:
        """Restore's token, to offer it again; "" when there is none to offer."""
        return "" if self.has_error("restore") else self.cleaned_data.get("restore", "")
