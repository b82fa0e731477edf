"""Scoring at the table without a network: the sync endpoint for the hands a phone queued.

The phone scores a hand at once with ``static/scores/scorer.js`` (a mirror of ``scores.engine.rules``) from the scorer
state the page carries (``scores.table.scorer``), and queues it while offline. ``hand_sync`` is where the
queued hands go, in order and in one request, when the network is back: the same form and
``services.record_hand`` as the hand form (its idempotency key makes a resend harmless), each hand's points as a
``points`` object (``{key: side or null}``, as a history file's version 2 hands hold them), answered in JSON with
what the server stored, so the phone can show the server's scores where they differ from its own. The server
stays the authority on every score.
"""

from __future__ import annotations

import json
import logging

from django import db
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ...engine.names import MAX_LENGTH as MAX_NAME_LENGTH
from ...engine.problems import located
from ...leagues.models import Role
from .. import selectors, services
from ..access import game_for
from ..answers import record
from ..forms.hands import SyncedHandForm
from ..models import Game

logger = logging.getLogger(__name__)

MAX_BATCH = 100  # Hands in one sync request: a long evening offline, with room to spare.
# The longest body read: twice a whole batch of hands, each naming players by the longest names in four-byte characters.
MAX_BODY = 256 * 1024


@login_required
@require_POST
def hand_sync(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    """Store the hands sent from a phone's queue, in order, as JSON ``{"hands": [...]}`` (each the hand form's pitcher,
    bid and auction, its number and key, and its ``points``); answer what was stored for each, stopping at the first the
    server does not take."""
    game, _membership = game_for(request.user, slug, pk, Role.SCORER)
    if int(request.META.get("CONTENT_LENGTH") or 0) > MAX_BODY:
        # Refused from the header alone, before a byte of the body is read.
        too_large = gettext("The hands sent at once were too large to read; nothing was stored.")
        return JsonResponse({"results": [_refused([too_large])]}, status=413)
    hands = _hands_in(request.body)
    if hands is None:
        return JsonResponse({"results": [_refused([])]}, status=400)
    results: list[dict] = []
    status = 200
    for data in hands:
        try:
            result, status = _store(game, data)
        except db.Error:
            if not results:
                raise  # Nothing was stored: the failure is the answer.
            # The database stopped answering (a restart): the hands stored are answered as stored, and the phone
            # keeps the others waiting for its next sync.
            logger.warning("A sync stopped when the database stopped answering; the hands stored before are answered", exc_info=True)
            break
        results.append(result)
        if result["status"] != "stored":
            break  # The hands after it were scored on a game the server does not have.
    return JsonResponse({"results": results}, status=status)


def _hands_in(body: bytes) -> list[dict] | None:
    """The hands of a body ``{"hands": [...]}``: 1 to MAX_BATCH of them, each an object of short texts and numbers
    (what the hand form takes) and its ``points``, an object of short keys, each a short text or null; None for
    anything else, checked before any hand is stored."""
    try:
        hands = json.loads(body)["hands"]
    except (ValueError, KeyError, TypeError, RecursionError):  # RecursionError: nested deeper than the parser goes.
        return None
    if not isinstance(hands, list) or not 0 < len(hands) <= MAX_BATCH:
        return None
    return hands if all(isinstance(hand, dict) and all(map(_field, hand.items())) for hand in hands) else None


def _field(item: tuple[str, object]) -> bool:
    key, value = item
    if key == "points":
        return isinstance(value, dict) and all(_short(k) and (v is None or _short(v)) for k, v in value.items())
    return _short(value)


def _short(value: object) -> bool:
    """A text or a number no longer than a player's name, as a hand's fields are."""
    return isinstance(value, str | int | float) and not isinstance(value, bool) and len(str(value)) <= MAX_NAME_LENGTH


def _store(game: Game, data: dict) -> tuple[dict, int]:
    """One hand from the queue: stored (with the server's totals and winner), a conflict, or refused, with why; and
    the answer's status (409 for a hand sent with another hand's key, 404 for a game deleted meanwhile). Each reason
    says the game, the hand and the field (``game "kitchen", hand 3, points: "off_jack" is missing``)."""
    try:
        state = selectors.load_game(game, hands=False)  # Each hand has the dealer the one before it left.
    except Game.DoesNotExist:
        return _refused([str(services.GameDeleted())]), 404
    fields = {key: str(value) for key, value in data.items() if key != "points"}
    form = SyncedHandForm(fields, points=data.get("points"), table=state.table, dealer=state.next_dealer)
    within = [gettext("game %(id)s") % {"id": json.dumps(game.code, ensure_ascii=False)}]
    number = data.get("number")
    if not form.is_valid() or form.cleaned_data["number"] is None or form.cleaned_data["key"] is None:
        where = [*within, gettext("hand %(number)s") % {"number": number}] if isinstance(number, int) else within
        reasons = [
            f"{', '.join(where if name == NON_FIELD_ERRORS else [*where, name])}: {error}"
            for name, errors in form.errors.items()
            for error in errors
        ]
        return _refused(reasons), 200
    answer = record(game, form, state)
    if answer.kind == "conflict":
        return {"status": "conflict", "messages": list(answer.messages)}, answer.status
    if answer.saved is None:
        problems = answer.problems.problems if answer.problems is not None else ()
        return _refused([*answer.messages, *(located(problem, within=within) for problem in problems)]), answer.status
    saved = answer.saved
    # record_hand brought game's winner up to date (None: no winner yet).
    names: dict[int | None, str] = {side.pk: name for name, side in state.sides.items()}
    stored = {
        "status": "stored",
        "number": saved.number,
        "totals": {names[score.side_id]: score.total for score in saved.side_scores},
        "winner": names.get(game.winner_id),
    }
    return stored, 200


def _refused(messages: list[str]) -> dict:
    """A hand not stored, and why (a hand that could not be read at all, when no message says more)."""
    unreadable = gettext("The page sent a hand it could not read; reload the page and tap the hand again.")
    return {"status": "refused", "messages": messages or [unreadable]}
