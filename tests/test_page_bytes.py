"""What the game page costs a phone in bytes: the scripts under their hashed names, and HTML compressed where the app
serves it without a proxy (make prod, make lan). The byte counts themselves are the benchmark's (bench/browser.py)."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.test import Client

from scores.management.commands import lan
from tests.markdown_files import ROOT

GZIP = "django.middleware.gzip.GZipMiddleware"
WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"


def test_offline_js_imports_the_scorer_by_its_hashed_name_under_the_manifest_storage(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "pitchleague.storage.StaticFilesStorage"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    offline, scorer = paths["scores/offline.js"], paths["scores/scorer.js"]
    assert re.fullmatch(r"scores/scorer\.[0-9a-f]{12}\.js", scorer)
    imports = re.findall(r'^import .* from "(.*)";$', (tmp_path / offline).read_text(), re.MULTILINE)
    assert imports == [f"./{scorer.removeprefix('scores/')}"]
    # The same file the game page preloads: one fetch, cached for good.
    assert staticfiles_storage.url("scores/scorer.js") == f"/static/{scorer}"
    assert (tmp_path / f"{offline}.gz").exists()  # Still WhiteNoise's compressed copies.


def middleware_with(env: dict[str, str]) -> list[str]:
    """The middleware the project's settings give with this environment (in a process of its own, as served)."""
    script = "import django, json; django.setup(); from django.conf import settings; print(json.dumps(settings.MIDDLEWARE))"
    base = {key: value for key, value in os.environ.items() if key not in {"COMPRESS_HTML", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env = {**base, "DJANGO_SETTINGS_MODULE": "pitchleague.settings", "DATABASE_URL": "sqlite:////tmp/pitch-page-bytes.sqlite3", **env}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def make_prod_env() -> dict[str, str]:
    recipe = re.search(r"^prod:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert recipe, "the Makefile has no prod target"
    pairs = dict(re.findall(r"\b([A-Z_]+)=([^\s$\\]+)", recipe.group(1)))
    pairs["SECRET_KEY"] = "make-prod-" + "k9Q2mZ4vB8nL1pR6tY3wE5uI0oA" * 2
    return pairs


@pytest.mark.parametrize("served_by", ["make lan", "make prod"])
def test_html_is_compressed_by_the_app_where_no_proxy_does_it(served_by):
    env = lan.serving_env(["192.168.1.20"], "lan-" + "k9Q2mZ4vB8nL1pR6tY3wE5uI0oA" * 2) if served_by == "make lan" else make_prod_env()
    assert env["DEBUG"] == "false" and env["COMPRESS_HTML"] == "true"
    middleware = middleware_with(env)
    # Right after WhiteNoise (whose static files come compressed already), before everything that writes the body.
    assert middleware[middleware.index(WHITENOISE) + 1] == GZIP


def test_behind_a_proxy_the_app_leaves_compression_to_it():
    assert GZIP not in middleware_with({"DEBUG": "false", "SECRET_KEY": "proxy-" + "k9Q2mZ4vB8nL1pR6tY3wE5uI0oA" * 2})


@pytest.mark.django_db
def test_a_compressed_game_page_decompresses_to_the_page(settings, scorer, four_player_game):
    url = four_player_game.get_absolute_url()
    plain = scorer.get(url).content.decode()
    settings.MIDDLEWARE = middleware_with(make_prod_env())  # make prod's middleware; the static files as in the tests.
    phone = Client()  # A client's middleware is loaded once: a new one for the new settings, signed in as the scorer.
    phone.cookies = scorer.cookies
    response = phone.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert response["Content-Encoding"] == "gzip" and "Accept-Encoding" in response["Vary"]
    page = gzip.decompress(response.content).decode()
    assert len(response.content) < len(page) / 3
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>") and "Save hand" in page
    # The same page but for what is new on every answer (the CSRF token, the CSP nonce, the hand's key).
    varying = r'(nonce="|Nonce": "|value="|X-CSRFToken": ")[^"\']+'
    assert re.sub(varying, r"\1", page) == re.sub(varying, r"\1", plain)
