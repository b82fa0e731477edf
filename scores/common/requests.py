"""Pages of Pitch League: small function views, one module an area; access is checked here, server side. No view
module imports another but ``access``: what several show is read in ``scores.selectors``.

- ``access``: a league or game for a member with at least a role (404 for anyone else).
- ``pages``: home and the Rules page.
- ``games``: starting a game, its page, and saving, undoing, editing and deleting hands.
- ``auction``, ``watch``: the auction before a hand; the read-only watch link and its QR code.
- ``offline``: where a phone's queue of hands saved without a network is stored.
- ``install``: the web app manifest and the service worker.
- ``leagues``, ``players``, ``members``, ``public``: a league's pages, its players, members and invites, its public link.
- ``history``: downloads and imports.
- ``accounts``: sign-up and password-reset mails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it: django-htmx's middleware gives each one ``htmx``."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """A request to a view behind ``login_required``: its user has logged in."""

    user: User
