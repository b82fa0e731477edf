"""What makes the app installable on a phone's home screen: the web app manifest and the service worker.

Both are served from the site's root, as a service worker controls only the pages under its own path.
The worker caches the static files (offline scoring is another issue); their URLs come from ``static()``,
so in production they are the hashed names and a new deployment brings a new cache.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

THEME_COLOUR = "#198754"  # Bootstrap's success green, the header's colour.
# The files every page loads, cached by the worker when it installs.
PRECACHED = (
    "bootstrap/css/bootstrap.min.css",
    "scores/app.css",
    "scores/app.js",
    "scores/offline.js",  # The game page's scorer and queue, for a game opened offline.
    "scores/scorer.js",
    "scores/favicon.svg",
    "scores/icon-192.png",
    "django_htmx/htmx-2.min.js",  # What {% htmx_script %} loads (django-htmx 1.29); a 404 here failed the install.
)


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the page's language."""
    data = {
        "name": gettext("Pitch League"),
        "short_name": gettext("Pitch"),
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
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: caches the static files, leaves every page and form to the network."""
    urls = [static(path) for path in PRECACHED]
    # Hashed names (production) never change content: the cache first. Plain names (development): the network
    # first, so an edited file is seen at once, the cache only when the network fails.
    immutable = isinstance(staticfiles_storage, ManifestFilesMixin)
    version = hashlib.sha256("\n".join(urls).encode()).hexdigest()[:12]
    response = render(
        request,
        "scores/service_worker.js",
        {"urls": urls, "version": version, "static_prefix": settings.STATIC_URL, "immutable": immutable},
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"  # The browser checks for a new worker on every visit.
    return response
