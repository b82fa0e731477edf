"""The auction, a bid at a time, before a hand is entered with it."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_safe

from .. import rules, services
from ..forms.hands import format_auction, parse_auction
from ..models import Role
from .access import game_for

# A bid in the auction's link that a house rule forbids (the page never offers it): which rule, in so many words.
HOUSE_RULE_PROBLEMS = {
    "min_bid": lambda: gettext("This game's house rules make the minimum bid 2, so a bid of 1 is not allowed; start again."),
    "steal": lambda: gettext("This game's house rules do not let the dealer steal the bid; start again."),
}


@login_required
@require_safe
def auction(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The bids seat by seat from the dealer's left; when done, back to the hand form with pitcher and bid."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    if game.is_finished:
        return redirect(game)
    state = services.load_game(game)
    dealer = state.next_dealer
    text = request.GET.get("bids", "")
    bids = parse_auction(text, state.table, dealer)
    problem = ""
    allowed: tuple[int | None, ...] = ()
    house_rule = None
    if bids is not None:
        # Each bid must have been allowed when it was made.
        for i, (_player, bid) in enumerate(bids):
            if bid not in rules.allowed_bids(state.table, dealer, bids[:i]):
                house_rule = rules.forbidding_rule(state.table, dealer, bids[:i], bid)
                bids = None
                break
    if bids is None:
        problem = (
            HOUSE_RULE_PROBLEMS[house_rule]() if house_rule else gettext("That auction does not follow the rules of bidding; start again.")
        )
        bids = ()
    else:
        allowed = rules.allowed_bids(state.table, dealer, bids)
        if not allowed:
            return redirect(f"{game.get_absolute_url()}?{urlencode({'auction': text})}#hand")
    order = state.table.bidding_order(dealer)
    choices = [
        {"label": pgettext("bid", "Pass") if b is None else str(b), "url": "?" + urlencode({"bids": format_auction([*bids, ("", b)])})}
        for b in allowed
    ]
    context = {
        "game": game,
        "league": game.league,
        "membership": membership,
        "dealer": dealer,
        "bids": bids,
        "bidder": order[len(bids)] if bids is not None and len(bids) < len(order) else None,
        "choices": choices,
        "problem": problem,
    }
    return render(request, "scores/auction.html", context)
