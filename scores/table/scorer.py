"""What the game page gives the phone's own scripts (``static/scores/scorer.js``, ``offline.js``): the game as they
need it, for the page's ``json_script``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import rules

if TYPE_CHECKING:
    from .selectors import GameState


def browser_table(table: rules.Table) -> dict:
    """A table as the phone's scripts take it: ``Table.as_dict`` (the seats in order, the sides and teams, the rules)
    and for each seat who deals after it and who bids first when it deals, as ``rules`` says (the scripts never work
    the rotation out)."""
    return {
        **table.as_dict(),
        "next_dealer": {seat: rules.next_dealer(table, seat) for seat in table.seats},
        "first_bidder": {seat: table.bidding_order(seat)[0] for seat in table.seats},
    }


def scorer_state(state: GameState, totals: dict[str, int], *, last_number: int, dealer: str, over: bool) -> dict:
    """The game as ``scorer.js`` and ``offline.js`` need it: the table and its rules, each side's total, the next hand
    and its dealer."""
    return {**browser_table(state.table), "totals": totals, "number": last_number + 1, "dealer": dealer, "over": over}
