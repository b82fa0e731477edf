"""Why the auction offers only some bids: a short note beside the choices (issue 13).

The bids themselves come from ``rules.allowed_bids``; this only puts the reason into words.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext


def auction_note(allowed: Sequence[int | None], bids: Sequence[tuple[str, int | None]], order: Sequence[str]) -> str:
    """A note when the rules limit the next bidder's choice, or "" when every bid is open."""
    numbers = [bid for bid in allowed if bid is not None]
    if not numbers:
        return ""
    highest = max((bid for _, bid in bids if bid is not None), default=0)
    dealer_bids = len(bids) == len(order) - 1
    if None not in allowed:
        return gettext("Everyone passed: the dealer must bid at least %(bid)s.") % {"bid": min(numbers)}
    if dealer_bids and highest and highest in numbers:
        return gettext("The dealer may steal the bid with %(bid)s.") % {"bid": highest}
    if highest:
        return gettext("A bid must beat %(bid)s.") % {"bid": highest}
    return ""
