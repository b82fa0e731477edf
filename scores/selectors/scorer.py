"""What the game page gives the phone's own scorer (``static/scores/scorer.js``): the game as it needs it, and
the words for its queue of hands waiting to sync."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.utils.translation import ngettext

if TYPE_CHECKING:
    from .games import GameState

# The waiting count is said for 1 to this many hands with the language's own plural forms, rendered server side
# (the phone has no message catalog); a longer queue says the last one.
COUNTED = 40


def scorer_state(state: GameState, totals: dict[str, int], *, last_number: int, dealer: str, over: bool) -> str:
    """The game as ``scorer.js`` needs it, in JSON for a data attribute (no script in the page to allow): the table
    and its rules, each side's total, the next hand and its dealer."""
    table = state.table
    return _json(
        {
            "seats": list(table.seats),
            "sides": list(table.sides),
            "teams": [{"name": team.name, "players": list(team.players)} for team in table.teams],
            "rules": table.rules.as_dict(),
            "totals": totals,
            "number": last_number + 1,
            "dealer": dealer,
            "over": over,
        }
    )


def waiting_texts() -> str:
    """ "3 hands waiting to sync" for 1 to COUNTED hands, in the active language (a JSON list)."""
    return _json(
        [
            ngettext("%(count)s hand waiting to sync", "%(count)s hands waiting to sync", count) % {"count": count}
            for count in range(1, COUNTED + 1)
        ]
    )


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
