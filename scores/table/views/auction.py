"""The auction, a bid at a time, before a hand is entered with it.

With htmx it is a panel inside the hand form: each tap asks for the next bidder's legal bids, and the finished
auction fills in the form (static/scores/app.js), to be saved with the hand in one request.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from ...common.requests import HtmxHttpRequest
from ...engine import rules
from ...leagues.models import Role
from .. import selectors
from ..access import game_for, not_found_if_deleted
from ..forms.hands import AuctionForm, format_auction


@login_required
@require_safe
@vary_on_headers("HX-Request")
@not_found_if_deleted
def auction(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The bids seat by seat from the dealer's left; when done, back to the hand form with pitcher and bid."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    if game.is_finished:
        return redirect(game)
    state = selectors.load_game(game)
    dealer = state.next_dealer
    form = AuctionForm(request.GET, table=state.table, dealer=dealer)
    bids: tuple[tuple[str, int | None], ...] = ()
    problem = ""
    allowed: tuple[int | None, ...] = ()
    if not form.is_valid():
        # An ErrorList's items are its messages (str); the stubs add ValidationError.
        problem = form.errors["bids"][0]  # type: ignore[assignment]
    else:
        bids = form.cleaned_data["bids"]
        allowed = rules.allowed_bids(state.table, dealer, bids)
        if not allowed and not request.htmx:
            return redirect(f"{game.get_absolute_url()}?{urlencode({'auction': format_auction(bids)})}#hand")
    order = state.table.bidding_order(dealer)
    here = reverse("scores:auction", args=[slug, pk])
    choices = [
        {
            "label": pgettext("bid", "Pass") if b is None else str(b),
            "url": f"{here}?{urlencode({'bids': format_auction([*bids, ('', b)])})}",
        }
        for b in allowed
    ]
    context = {
        "game": game,
        "league": game.league,
        "membership": membership,
        "dealer": dealer,
        "bids": bids,
        # Nobody after the top bid: the auction is over with it, however many have not bid.
        "bidder": order[len(bids)] if allowed else None,
        "choices": choices,
        "problem": problem,
        "here": here,
        "undo_url": f"{here}?{urlencode({'bids': format_auction(bids[:-1])})}" if bids else "",
        "note": _note(allowed, bids, order),
        "top": _top_bid_note(state.table, allowed, bids, order),
        "result": rules.auction_result(state.table, dealer, bids) if bids and not allowed else None,
        "text": format_auction(bids),
    }
    if request.htmx:
        return render(request, "scores/table/auction.html#panel", context)
    return render(request, "scores/table/auction.html", context)


def _top_bid_note(table: rules.Table, allowed: Sequence[int | None], bids: Sequence[tuple[str, int | None]], order: Sequence[str]) -> str:
    """That the top bid (the game's total) ends the auction at once, while someone after this bidder could still bid."""
    if table.rules.total not in allowed or len(bids) >= len(order) - 1:
        return ""
    return gettext("A bid of %(top)s ends the auction at once.") % {"top": table.rules.total}


def _note(allowed: Sequence[int | None], bids: Sequence[tuple[str, int | None]], order: Sequence[str]) -> str:
    """Why the auction offers only some bids: a note when the rules limit the next bidder's choice, or "" when
    every bid is open. The bids themselves come from ``rules.allowed_bids``; this only puts the reason into words."""
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
