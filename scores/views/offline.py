"""Scoring at the table without a network: the sync endpoint for the hands a phone queued.

The phone scores a hand at once with ``static/scores/scorer.js`` (a mirror of ``scores.rules``) from the scorer
state the page carries (``scores.selectors.scorer``), and queues it while offline. ``hand_sync`` is where the
queued hands go, in order and in one request, when the network is back: the same form and
``services.record_hand`` as the hand form (its idempotency key makes a resend harmless), each hand's points as a
``points`` object (``{key: side or null}``, as a history file's version 2 hands hold them), answered in JSON with
what the server stored, so the phone can show the server's scores where they differ from its own. The server
stays the authority on every score.
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from .. import rules, selectors, services
from ..forms.hands import SyncedHandForm
from ..models import Game, Role
from ..problems import located
from .access import game_for

MAX_BATCH = 100  # Hands in one sync request: a long evening offline, with room to spare.


@login_required
@require_POST
def hand_sync(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    """Store the hands sent from a phone's queue, in order, as JSON ``{"hands": [...]}`` (each the hand form's pitcher,
    bid and auction, its number and key, and its ``points``); answer what was stored for each, stopping at the first the
    server does not take."""
    game, _membership = game_for(request.user, slug, pk, Role.SCORER)
    try:
        hands = json.loads(request.body)["hands"]
    except (ValueError, KeyError, TypeError):
        hands = None
    if not isinstance(hands, list) or not 0 < len(hands) <= MAX_BATCH or not all(isinstance(hand, dict) for hand in hands):
        return JsonResponse({"results": [_refused([])]}, status=400)
    results = []
    for data in hands:
        results.append(_store(game, data))
        if results[-1]["status"] != "stored":
            break  # The hands after it were scored on a game the server does not have.
    return JsonResponse({"results": results})


def _store(game: Game, data: dict) -> dict:
    """One hand from the queue: stored (with the server's totals and winner), a conflict, or refused, with why: each
    reason says the game, the hand and the field (``game "kitchen", hand 3, points: "off_jack" is missing``)."""
    state = selectors.load_game(game, hands=False)  # Each hand has the dealer the one before it left.
    fields = {key: str(value) for key, value in data.items() if key != "points"}
    form = SyncedHandForm(fields, points=data.get("points"), table=state.table, dealer=state.next_dealer)
    within = [gettext("game %(id)s") % {"id": json.dumps(game.code, ensure_ascii=False)}]
    number = data.get("number")
    if not form.is_valid() or form.cleaned_data["number"] is None or form.cleaned_data["key"] is None:
        where = [*within, gettext("hand %(number)s") % {"number": number}] if isinstance(number, int) else within
        return _refused(
            [
                f"{', '.join(where if name == NON_FIELD_ERRORS else [*where, name])}: {error}"
                for name, errors in form.errors.items()
                for error in errors
            ]
        )
    try:
        saved = services.record_hand(
            game=game, hand=form.to_hand(), number=form.cleaned_data["number"], idempotency_key=form.cleaned_data["key"], state=state
        )
    except services.HandAlreadyRecorded as error:
        return {"status": "conflict", "messages": [str(error)]}
    except rules.RulesError as error:
        if game.is_finished:
            return _refused([gettext("The game is over: no more hands can be entered.")])
        return _refused([located(problem, within=within) for problem in error.problems])
    names = {side.pk: name for name, side in state.sides.items()}  # record_hand brought game's winner up to date.
    return {
        "status": "stored",
        "number": saved.number,
        "totals": {names[score.side_id]: score.total for score in saved.side_scores},
        "winner": names.get(game.winner_id),
    }


def _refused(messages: list[str]) -> dict:
    """A hand not stored, and why (a hand that could not be read at all, when no message says more)."""
    unreadable = gettext("The page sent a hand it could not read; reload the page and tap the hand again.")
    return {"status": "refused", "messages": messages or [unreadable]}
