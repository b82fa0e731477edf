"""A game's read-only watch link: the live score anyone with the link can follow, and the owner's switch for it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from ...common.requests import HtmxHttpRequest
from ...engine import qr
from ...leagues.models import Role
from .. import selectors, services
from ..access import game_for, not_found_if_deleted
from ..models import Game

WATCH_LINK_ACTIONS = {"off": False, "new": True}


@login_required
@require_POST
def game_watch_link(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Turn the game's watch link off, or replace it by a new one (the old one stops working): the owner's."""
    game, _membership = game_for(request.user, slug, pk, Role.OWNER)
    on = WATCH_LINK_ACTIONS.get(request.POST.get("action", ""))
    if on is None:
        messages.error(request, gettext("Unknown action for the watch link: choose off or new."))
    else:
        services.set_watch_link(game=game, on=on)
        if on:
            messages.success(request, gettext("The watch link is new: the old one no longer opens the game."))
        else:
            messages.success(request, gettext("The watch link is off: it no longer opens the game."))
    return redirect(game)


def _watch_etag(request: HtmxHttpRequest, version: int) -> str:
    """The game's version, the language and whether this is the fragment or the page: same ETag, same response.

    The language is in it because the same version reads differently after a switch: a browser that showed the
    page in English must not be told 304 when it asks again in Italian.
    """
    return f'"{version}-{get_language()}-{"fragment" if request.htmx else "page"}"'


@require_safe
@vary_on_headers("HX-Request", "Cookie", "Accept-Language")  # The language: the switcher's cookie, else Accept-Language.
@not_found_if_deleted
def watch(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The read-only scoreboard anyone with the link can follow; polled, answered 304 when nothing changed.

    Phones poll every few seconds, so the unchanged case is kept cheap: one indexed query for the version alone
    (``get``: ``first`` would sort the one row by its key), compared with If-None-Match by hand (no
    conditional-view decorators, no template).
    """
    try:
        version = Game.objects.values_list("version", flat=True).get(share_token=token)
    except Game.DoesNotExist:
        raise Http404 from None
    etag = _watch_etag(request, version)
    wanted = request.headers.get("If-None-Match", "")
    if etag in wanted or wanted.strip() == "*":  # A list of quoted tags (W/ or not): ours cannot be part of another.
        response: HttpResponse = HttpResponseNotModified()
    else:
        game = get_object_or_404(Game.objects.select_related("league", "winner"), share_token=token)
        template = "scores/table/watch.html#live" if request.htmx else "scores/table/watch.html"
        response = render(request, template, selectors.scoreboard_context(game))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@login_required
@require_safe
def watch_qr(request: HttpRequest, slug: str, pk: int, token: str) -> HttpResponse:
    """The game's watch link as a QR code (SVG), for another phone's camera; only the link that is on now.

    The token is in the code's address, so a new link is a new image and a browser's copy of the old one is never
    shown for it; an address whose link was replaced or turned off answers 404.
    """
    game, _membership = game_for(request.user, slug, pk)
    if game.share_token is None or token != game.share_token:
        raise Http404
    url = request.build_absolute_uri(reverse("scores:watch", args=[token]))
    response = HttpResponse(qr.svg(url), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"
    return response
