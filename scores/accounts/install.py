"""What makes the app installable on a phone's home screen and lets it work offline: the web app manifest, the
service worker, and the scripts' texts (Django's JavaScript catalog).

The manifest and the worker are served from the site's root, as a service worker controls only the pages under its own
path. The worker caches the static files and the catalogs; the static files' URLs come from ``static()``, so in
production they are the hashed names and a new deployment brings a new cache.
"""

from __future__ import annotations

import datetime
import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import last_modified, require_safe
from django.views.i18n import JavaScriptCatalog

from . import offline_pages

THEME_COLOUR = "#146c43"  # The header's green (app.css), dark enough for its light text.
# The files every page loads, cached by the worker when it installs.
PRECACHED = (
    "scores/bootstrap.min.css",
    "scores/app.css",
    "scores/theme.js",
    "scores/app.js",
    "scores/offline.js",  # The game page's scorer and queue, for a game opened offline.
    "scores/scorer.js",
    "scores/favicon.svg",
    "scores/icon-192.png",
    "django_htmx/htmx-2.min.js",  # What {% htmx_script %} loads (django-htmx 1.29); a 404 here failed the install.
)


def _catalog_compiled(request: HttpRequest, lang: str) -> datetime.datetime | None:
    """When the language's catalog was last compiled: a browser asking again gets a 304 until it changes."""
    compiled = Path(settings.LOCALE_PATHS[0]) / lang / "LC_MESSAGES" / "djangojs.mo"
    return datetime.datetime.fromtimestamp(compiled.stat().st_mtime, tz=datetime.UTC) if compiled.exists() else None


@require_safe
@cache_control(no_cache=True)  # Asked again each time (a 304 while the catalog is the same), never a stale guess.
@last_modified(_catalog_compiled)
def javascript_catalog(request: HttpRequest, lang: str) -> HttpResponseBase:
    """The scripts' texts in the language the URL names (the page links its own), Django's ``gettext``, ``ngettext`` and
    ``interpolate`` with them. The language is in the URL, not in a cookie, so a copy a cache keeps never speaks the
    language the player switched away from."""
    if lang not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(lang):
        response = JavaScriptCatalog.as_view(packages=["scores"])(request)
    response["Content-Language"] = lang  # The URL's language, not the one the request would have chosen.
    return response


def catalog_urls() -> list[str]:
    """Every language's catalog, for the service worker to keep: the page works offline in whichever is chosen."""
    return [reverse("scores:javascript_catalog", args=[code]) for code, _name in settings.LANGUAGES]


@require_safe
def manifest(request: HttpRequest, lang: str) -> JsonResponse:
    """The web app manifest in the language its URL names: the page links its own language's, since Chromium fetches
    the manifest without the cookies that chose the page's language, and a cache keeps one copy per URL."""
    if lang not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(lang):
        data = {
            "name": gettext("Pitch League"),
            "short_name": gettext("Pitch"),
            "description": gettext("Keep score of Pitch at the table, and standings for your league."),
            "lang": lang,
            "dir": "ltr",
            "start_url": reverse("scores:home"),
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOUR,
            "background_color": "#ffffff",
            "icons": [
                {"src": static(f"scores/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
                for size in (192, 512)
            ],
        }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Content-Language"] = lang
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: caches the static files and the catalogs, and keeps the game pages for offline scoring."""
    urls = [static(path) for path in PRECACHED]
    catalogs = catalog_urls()
    # Hashed names (production) never change content: the cache first. Plain names (development): the network
    # first, so an edited file is seen at once, the cache only when the network fails.
    immutable = isinstance(staticfiles_storage, ManifestFilesMixin)
    version = hashlib.sha256("\n".join(urls + catalogs).encode()).hexdigest()[:12]
    response = render(
        request,
        "scores/accounts/service_worker.js",
        {
            "urls": urls,
            "catalogs": catalogs,
            "version": version,
            "static_prefix": settings.STATIC_URL,
            "immutable": immutable,
            "account_header": offline_pages.HEADER,
        },
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"  # The browser checks for a new worker on every visit.
    return response
