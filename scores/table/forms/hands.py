"""Entering a hand: the tap-to-score buttons, the auction written as text, and the engine's problems put back on the fields.

The tap-to-score controls are plain radio fields rendered as big buttons; the
form only checks that a choice was made and is one of the buttons on offer.
Whether the hand is legal is the rules engine's call (``scores.engine.rules``), and
its problems are put back on the field they are about by ``add_problems``.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core import signing
from django.utils.translation import gettext, pgettext

from ...common.forms import ShortRefusals
from ...engine import rules
from ...engine.problems import message as problem_message
from ...engine.problems import point_name

NOT_IN_PLAY = "-"  # A point's button for "Not in play" (for Game: "Tied").


PASS = "p"  # A pass in an auction written as text: "p,2,p,3".


def _buttons(label, choices: Sequence[tuple[str, str]], *, required_message: str) -> forms.ChoiceField:
    return forms.ChoiceField(label=label, choices=choices, widget=forms.RadioSelect, error_messages={"required": required_message})


def _missing_word(key: str) -> str:
    """The button for a point the hand did without: Game tied, any other card not in play."""
    return pgettext("card game point", "Tied") if key == "game" else pgettext("card game point", "Not in play")


def _required_message(point: rules.Point) -> str:
    """What a point's row says when it was not tapped."""
    key = point.key
    if key == "high":
        return gettext("Tap who won High.")
    if key == "low":
        return gettext("Tap who won Low (the same as High if only one trump was out).")
    if key == "jack":
        return gettext("Tap who won the Jack, or Not in play.")
    if key == "game":
        return gettext("Tap who won Game, or Tied.")
    name = {"point": point_name(key)}
    return (gettext("Tap who won %(point)s, or Not in play.") if point.optional else gettext("Tap who won %(point)s.")) % name


class _BidField(forms.TypedChoiceField):
    """Offers as buttons the bids the game's rules allow, but lets any bid up to the variant's total through, so the
    rules engine refuses one the variant or a house rule forbids (an edit, a crafted post) saying which rule forbids it."""

    def __init__(self, *args, total: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.total = total

    def valid_value(self, value) -> bool:
        return str(value) in {str(b) for b in range(1, self.total + 1)}


class HandForm(ShortRefusals, forms.Form):
    """One hand in taps: pitcher, bid, and who won each of the game's points (a row each, named by the point's key)."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, required=False)
    key = forms.UUIDField(widget=forms.HiddenInput, required=False)
    auction = forms.CharField(widget=forms.HiddenInput, required=False, max_length=40)

    def __init__(self, *args, table: rules.Table, dealer: str | None, **kwargs) -> None:
        """``dealer`` deals this hand: needed to read an auction sent with it (None when none is sent)."""
        super().__init__(*args, **kwargs)
        self.table, self.dealer = table, dealer
        players = [(name, name) for name in table.seats]
        sides = [(name, name) for name in table.sides]
        taps: dict[str, forms.Field] = {
            "pitcher": _buttons(gettext("Pitcher"), players, required_message=gettext("Tap who won the bid.")),
            "bid": _BidField(
                label=gettext("Bid"),
                choices=[(b, str(b)) for b in table.rules.bids],
                coerce=int,
                widget=forms.RadioSelect,
                error_messages={"required": gettext("Tap the bid.")},
                total=table.rules.total,
            ),
        }
        for point in table.rules.kinds:
            choices = [*sides, (NOT_IN_PLAY, _missing_word(point.key))] if point.optional else sides
            taps[point.key] = _buttons(point_name(point.key), choices, required_message=_required_message(point))
        self.fields = {**taps, **self.fields}  # The taps first, in the order a hand is told.

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # BaseForm.clean returns cleaned_data.
        # The hidden fields' errors would show next to nothing: say them above the form.
        if "auction" in self.errors:
            self.add_error(None, self.errors["auction"][0])
        if "number" in self.errors or "key" in self.errors:
            self.add_error(None, gettext("The page sent a hand it could not read; reload the page and tap the hand again."))
        return data

    def clean_auction(self) -> tuple[tuple[str, int | None], ...] | None:
        text = self.cleaned_data.get("auction") or ""
        if not text:
            return None
        assert self.dealer is not None  # A hand sent with an auction is given its dealer.
        bids = parse_auction(text, self.table, self.dealer)
        if bids is None:
            raise forms.ValidationError(gettext("The auction could not be read; enter it again."))
        return bids

    def points(self) -> dict[str, str | None]:
        """Who won each of the game's points, as tapped (None: not in play, or Game tied)."""
        return {key: None if self.cleaned_data[key] == NOT_IN_PLAY else self.cleaned_data[key] for key in self.table.rules.points}

    def to_hand(self) -> rules.Hand:
        data = self.cleaned_data
        return rules.Hand(pitcher=data["pitcher"], bid=data["bid"], points=self.points(), bids=data.get("auction"))

    @staticmethod
    def initial_for(hand: rules.Hand) -> dict:
        """The buttons pressed for a stored hand, for editing it."""
        return {
            "pitcher": hand.pitcher,
            "bid": hand.bid,
            **{key: NOT_IN_PLAY if side is None else side for key, side in hand.points.items()},
            "auction": format_auction(hand.bids) if hand.bids is not None else "",
        }


class SyncedHandForm(HandForm):
    """A hand a phone queued and sends when the network is back: the hand form's pitcher, bid, auction, number and
    key, with the points as the JSON object the phone sent (``{key: side or null}``), which the rules engine checks
    whole (a missing or an extra key, null for High, a name no side has), as it does a history file's."""

    def __init__(self, *args, points: object, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for key in self.table.rules.points:
            del self.fields[key]
        self.given_points = points

    def to_hand(self) -> rules.Hand:
        data = self.cleaned_data
        return rules.Hand(pitcher=data["pitcher"], bid=data["bid"], points=self.given_points, bids=data.get("auction"))  # type: ignore[arg-type]


_RESTORE_SALT = "scores.forms.hands.restore"


def restore_token(game_pk: int, version: int, number: int, hand: rules.Hand) -> str:
    """What "Restore" posts after an undo: the undone hand as entered, which game and hand it was, the game's version
    after the undo and a key of its own (a second tap stores nothing twice), signed so a page cannot change them."""
    value = {"game": game_pk, "version": version, "number": number, "key": uuid.uuid4().hex, "hand": dataclasses.asdict(hand)}
    return signing.dumps(value, salt=_RESTORE_SALT, compress=True)


def read_restore_token(token: str, game_pk: int) -> dict:
    """``restore_token``'s values back (``services.restore_hand``'s arguments); ValidationError unless it is a token
    of this game."""
    refused = forms.ValidationError("not a restore token of this game", code="invalid")  # The views say it in words.
    try:
        value = signing.loads(token, salt=_RESTORE_SALT)
    except signing.BadSignature:
        raise refused from None
    if not isinstance(value, dict) or value.get("game") != game_pk:
        raise refused
    hand = value["hand"]
    if not isinstance(hand, dict) or set(hand) != {field.name for field in dataclasses.fields(rules.Hand)}:
        raise refused  # Signed before a hand had its points in one mapping: the hand it undid is no longer its to put back.
    bids = tuple((player, bid) for player, bid in hand["bids"]) if hand["bids"] is not None else None
    return {
        "number": value["number"],
        "version": value["version"],
        "key": uuid.UUID(value["key"]),
        "hand": rules.Hand(**(hand | {"bids": bids})),
    }


class RestoreForm(ShortRefusals, forms.Form):
    """The Restore button's post: its token, checked and read back into ``restore`` (``services.restore_hand``'s
    arguments)."""

    token = forms.CharField(widget=forms.HiddenInput, max_length=4000)

    def __init__(self, *args, game_pk: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game_pk = game_pk

    def clean_token(self) -> dict:
        return read_restore_token(self.cleaned_data["token"], self.game_pk)

    @property
    def restore(self) -> dict:
        return self.cleaned_data["token"]


class UndoForm(ShortRefusals, forms.Form):
    """Undo's post: the number of the hand it undoes, the last the page showed, so a double tap undoes one hand."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class VersionForm(ShortRefusals, forms.Form):
    """An edit's or a delete's post: the game's version when the page was shown, so nothing changes if another phone
    changed the game meanwhile."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


# A bid in the auction's link that a house rule forbids (the page never offers it): which rule, in so many words.
HOUSE_RULE_PROBLEMS = {
    "min_bid": lambda table, bid: (
        gettext("This game's house rules make the minimum bid %(min)s, so a bid of %(bid)s is not allowed; start again.")
        % {"min": table.rules.min_bid, "bid": bid}
    ),
    "steal": lambda table, bid: gettext("This game's house rules do not let the dealer steal the bid; start again."),
}


class AuctionForm(ShortRefusals, forms.Form):
    """The auction page's address: the bids so far from the dealer's left (``?bids=p,2``), each one the rules
    allowed when it was made."""

    bids = forms.CharField(required=False)

    def __init__(self, *args, table: rules.Table, dealer: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table, self.dealer = table, dealer

    def clean_bids(self) -> tuple[tuple[str, int | None], ...]:
        refused = gettext("That auction does not follow the rules of bidding; start again.")
        bids = parse_auction(self.cleaned_data["bids"], self.table, self.dealer)
        if bids is None:
            raise forms.ValidationError(refused)
        for i, (_player, bid) in enumerate(bids):
            if bid not in rules.allowed_bids(self.table, self.dealer, bids[:i]):
                house_rule = rules.forbidding_rule(self.table, self.dealer, bids[:i], bid)
                raise forms.ValidationError(HOUSE_RULE_PROBLEMS[house_rule](self.table, bid) if house_rule else refused)
        return bids


class AuctionResultForm(ShortRefusals, forms.Form):
    """The auction page's result, back on the game page (``?auction=p,2,p,3``): the bids, and the pitcher and bid
    they make (``rules.auction_result``)."""

    auction = forms.CharField(required=False, max_length=40)

    def __init__(self, *args, table: rules.Table, dealer: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table, self.dealer = table, dealer

    def clean_auction(self) -> dict | None:
        text = self.cleaned_data["auction"]
        if not text:
            return None
        refused = gettext("That auction does not follow the rules of bidding; enter it again.")
        bids = parse_auction(text, self.table, self.dealer)
        if bids is None:
            raise forms.ValidationError(refused)
        try:
            pitcher, bid = rules.auction_result(self.table, self.dealer, bids)
        except rules.RulesError as error:
            problem = error.problems[0]
            raise forms.ValidationError(problem_message(problem) if problem.template in rules.HOUSE_RULE_REFUSALS else refused) from None
        return {"text": text, "bids": bids, "pitcher": pitcher, "bid": bid}


def describe_problems(error: rules.RulesError, *, after: int | None = None) -> list[tuple[str | None, str]]:
    """The rules' problems as (field, message).

    ``after``: for an edit or a delete, the last hand it leaves in place; a
    problem with a later hand and no field then means the game would be won
    before that hand, which is said in so many words.
    """
    described: list[tuple[str | None, str]] = []
    for problem in error.problems:
        if problem.hand is not None and after is not None and problem.hand > after and problem.field is None:
            message = gettext(
                "With this change the game would be won on hand %(end)s, before the hands after it, so nothing was changed."
            ) % {"end": problem.hand - 1}
            described.append((None, message))
        else:
            described.append((problem.field, problem_message(problem)))
    return described


def add_problems(
    form: forms.Form, error: rules.RulesError, *, after: int | None = None, fields: Mapping[str, str | None] | None = None
) -> None:
    """Put each of the rules' problems next to the field it is about, or above the form.

    ``fields`` maps a problem's field to the form's name for it, when they differ.
    """
    for field, message in describe_problems(error, after=after):
        name = (fields or {}).get(field or "", field)
        if name in form.fields and not form.fields[name].widget.is_hidden:
            form.add_error(name, message)
        else:
            form.add_error(None, message)


def parse_auction(text: str, table: rules.Table, dealer: str) -> tuple[tuple[str, int | None], ...] | None:
    """``"p,2,p,3"`` as (player, bid) pairs from the dealer's left; None if it is not that shape."""
    words = [w.strip() for w in text.split(",")] if text else []
    order = table.bidding_order(dealer)
    if len(words) > len(order):
        return None
    bids: list[tuple[str, int | None]] = []
    for player, word in zip(order, words, strict=False):
        if word == PASS:
            bids.append((player, None))
        # ASCII digits only: "²" is a digit to str.isdigit() but not to int(). The rules of bidding are the engine's to check.
        elif word.isascii() and word.isdigit() and 1 <= int(word) <= table.rules.total:
            bids.append((player, int(word)))
        else:
            return None
    return tuple(bids)


def format_auction(bids: Sequence[tuple[str, int | None]]) -> str:
    return ",".join(PASS if b is None else str(b) for _player, b in bids)
