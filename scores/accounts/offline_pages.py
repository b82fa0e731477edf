"""Which account a page was made for, for the service worker's offline copies of game pages.

The service worker keeps the game pages a player opened, to show them without a network. A session can end
without the "Log out" button (cookies cleared, the session expired, its password changed on another phone), and
the next person to log in on the phone must not see the last one's pages: every page says, in a header, an opaque
key of the account it was made for (``anonymous`` for nobody), and the worker drops what it kept when the key
changes and serves a kept page only for the key it was kept under (``templates/scores/accounts/service_worker.js``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

HEADER = "Pitch-Account"
NOBODY = "anonymous"


def account_key(user) -> str:
    """The key of ``user``'s account: the same on every page for one account, another for any other; it names nobody."""
    if not user.is_authenticated:
        return NOBODY
    return salted_hmac("scores.accounts.offline_pages", str(user.pk), algorithm="sha256").hexdigest()[:24]


class AccountHeaderMiddleware:
    """Says on each page (HTML) which account it was made for; not on a server error's page, which may be the
    database failing, so that the session could not be read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code < 500 and response.get("Content-Type", "").startswith("text/html"):
            response[HEADER] = account_key(request.user)
        return response
