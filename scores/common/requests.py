"""The request as a view sees it. Views are small functions, each area's in its ``views``; access is checked on the
server by each area's ``access``. No view module imports another but the access helpers: what several pages show is
a read in a ``selectors``."""

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
