"""What became of a hand sent to be recorded, as the hand form (``views.games``) and the offline sync
(``views.offline``) both answer it: the one place a hand service's refusals turn into an answer."""

from __future__ import annotations

import dataclasses
from typing import Literal

from django.utils.translation import gettext

from ..common.refusals import Gone
from ..engine import rules
from . import services
from .forms.hands import HandForm
from .models import Game, Hand
from .selectors import GameState


@dataclasses.dataclass(frozen=True)
class HandAnswer:
    """A hand stored (``saved``), or refused with nothing changed: ``kind`` "conflict" when another hand took its
    number meanwhile, "gone" when the game was deleted, else "refused"; ``messages`` say why, or the rules' objection
    is ``problems``, for the caller to place at its fields. ``status``: the answer's HTTP status."""

    kind: Literal["stored", "conflict", "refused", "gone"]
    saved: Hand | None = None
    messages: tuple[str, ...] = ()
    problems: rules.RulesError | None = None
    status: int = 200


def record(game: Game, form: HandForm, state: GameState) -> HandAnswer:
    """Record the hand of a valid hand form (``services.record_hand``) and say what became of it."""
    data = form.cleaned_data
    try:
        saved = services.record_hand(game=game, hand=form.to_hand(), number=data["number"], idempotency_key=data["key"], state=state)
    except Gone as gone:
        return HandAnswer("gone", messages=(str(gone),), status=404)
    except services.HandAlreadyRecorded as error:
        return HandAnswer("conflict", messages=(str(error),))
    except services.KeyUsedForAnotherHand as error:
        return HandAnswer("refused", messages=(str(error),), status=409)
    except rules.RulesError as error:
        if game.is_finished:  # Won meanwhile: that, not the rules' objection to one more hand.
            return HandAnswer("refused", messages=(gettext("The game is over: no more hands can be entered."),))
        return HandAnswer("refused", problems=error)
    return HandAnswer("stored", saved=saved)
