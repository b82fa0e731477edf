"""The app in its players' languages: complete catalogs, every page in every language, the switcher, local dates.

English is the source language; Afrikaans, Cebuano, Italian, Maltese and
Vietnamese have catalogs in ``locale/``: ``django.po`` for the code and the
templates, ``djangojs.po`` for the scripts (Django's JavaScript catalog). A page "has no English left" when no
word of its visible text is also a word of the same page in English, apart
from names, numbers and the few words the language itself shares with English
(listed below, each with its reason).
"""

from __future__ import annotations

import ast
import datetime
import json
import re
import shutil
import subprocess
import sys
import unicodedata
import uuid
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core import mail
from django.http import HttpResponseNotAllowed
from django.template.loader import render_to_string
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse
from django.utils import formats, translation

from scores.accounts.models import AccountLanguage
from scores.engine import charts, problems, rules
from scores.errors import MethodNotAllowedPage
from scores.history.models import ImportJob
from scores.leagues.models import Invite, League, Membership, Player, Role
from scores.people import services as people_services
from scores.standings import services as standings_services
from scores.table import selectors, services
from scores.table.forms.hands import restore_token
from scores.table.models import Game
from scores.templatetags.house_rules import rules_line
from scores.templatetags.score_charts import signed
from tests import catalogs
from tests.conftest import PASSWORD, hand
from tests.small_league import build

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ["af", "ceb", "it", "mt", "vi"]
PO = {lang: ROOT / "locale" / lang / "LC_MESSAGES" / "django.po" for lang in LANGUAGES}
JS_PO = {lang: ROOT / "locale" / lang / "LC_MESSAGES" / "djangojs.po" for lang in LANGUAGES}
# Each catalog, and at least how many messages it holds (a catalog emptied by mistake fails).
CATALOGS = [pytest.param(PO[lang], 400, id=f"{lang}-django") for lang in LANGUAGES] + [
    pytest.param(JS_PO[lang], 20, id=f"{lang}-djangojs") for lang in LANGUAGES
]

# Words that are the same in English and the language, on purpose: the game's and the app's names, file
# formats, the language names of the switcher (each in its own language), units, paper sizes, the letters a score
# sheet marks its sides with and Django's default labels.
SHARED = {
    "Pitch", "League", "JSON", "CSV", "OpenSkill", "mu", "sigma", "MB", "KB", "W", "Setback", "Auction",
    "English", "Afrikaans", "Cebuano", "Italiano", "Malti", "Tiếng", "Việt", "QR", "A4", "Letter", "A", "B",
}  # fmt: skip
SHARED_BY_LANGUAGE = {
    # Afrikaans words spelled as English ones: "as" (if), "of" (or), "in", "is", "was", "so", "by" (at), "sit", "per", "hand",
    # "letter"; W is "wen" (won) in the streak, W1; "joker" is the card table's word (a "grapjas" is a prankster).
    "af": {"Hand", "hand", "Datum", "Status", "In", "in", "is", "of", "as", "was", "so", "by", "sit", "per", "minimum", "W1",
           "Joker", "Jokers", "joker", "jokers", "letter"},
    # Filipino players say these English words at the table and online.
    "ceb": {"account", "app", "Email", "email", "Password", "password", "link", "file", "format", "download", "address",
            "personal", "poker", "Pts", "pitch", "server",
            # The card table's English words the glossary keeps in Cebuano.
            "Pitcher", "pitcher", "Bid", "bid", "Dealer", "dealer", "Jack", "jack", "Game", "game", "Team", "team", "trump", "trick"},
    # Italian words spelled as English ones ("a", "in", "per", "solo", "zero"), and loanwords Italian uses.
    "it": {"a", "A", "in", "In", "per", "solo", "Solo", "zero", "E-mail", "e-mail", "account", "link", "password", "Password",
           "app", "file", "download", "Pt", "Data", "server"},
    # Maltese writes these loanwords as English does.
    "mt": {"Email", "email", "Password", "password", "link", "app", "Data",
           # The card table's English words the glossary keeps in Maltese.
           "Pitcher", "pitcher", "Jack", "jack", "Pass", "pass", "trump", "trick", "tricks"},
    "vi": {"E-mail", "e-mail", "id"},
}  # fmt: skip


class _Text(HTMLParser):
    """The words a player sees: text outside script and style, and the title and aria-label attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        self.parts.extend(value for name, value in attrs if name in ("title", "aria-label") and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible_words(html: str) -> set[str]:
    parser = _Text()
    parser.feed(html)
    text = unicodedata.normalize("NFC", " ".join(parser.parts))
    return {w.strip(".,:;!?()·…“”\"'\u2019\u2013-▲▼#%*") for w in text.split()} - {""}


def lang_of(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


# The catalogs --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("po", "at_least"), CATALOGS)
def test_every_catalog_entry_is_translated_and_none_is_fuzzy(po, at_least):
    lang = po.parent.parent.name
    entries = catalogs.read(po)
    header, messages = entries[0], catalogs.messages(po)
    assert f"Language: {lang}\n" in header.msgstr[0]
    assert not header.fuzzy, "the header is still marked fuzzy"
    plural_forms = next(line for line in catalogs.read(PO[lang])[0].msgstr[0].splitlines() if line.startswith("Plural-Forms:"))
    assert plural_forms in header.msgstr[0].splitlines()  # The scripts count the way the pages do.
    assert len(messages) > at_least
    assert [e.msgid for e in messages if not e.translated] == []
    assert [e.msgid for e in messages if e.fuzzy] == []
    assert [e.msgid for e in entries if e.obsolete] == []


PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[sd]|</?[a-z]+>")


@pytest.mark.parametrize(("po", "at_least"), CATALOGS)
def test_translations_keep_every_placeholder_and_tag(po, at_least):
    """A translation that lost or invented a %(name)s would fail or say the wrong thing at run time."""
    wrong = [
        (e.msgid, text)
        for e in catalogs.messages(po)
        for text in e.msgstr
        if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(e.msgid))
    ]
    assert wrong == []


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_catalogs_hold_every_marked_string_and_nothing_else(tmp_path, domain):
    """makemessages over a copy of the code, as `make messages` runs it: a string marked but missing from a catalog
    arrives untranslated (djangojs: the scripts' gettext, ngettext and pgettext)."""
    for name in ("scores", "templates", "pitchleague", "locale", "static"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    command = [sys.executable, "manage.py", "makemessages", f"--domain={domain}", "--all", "--no-obsolete", "--add-location=file"]
    subprocess.run([*command, "--verbosity=0"], cwd=tmp_path, check=True, capture_output=True)
    for lang in LANGUAGES:
        fresh = catalogs.messages(tmp_path / "locale" / lang / "LC_MESSAGES" / f"{domain}.po")
        assert [e.msgid for e in fresh if not e.translated or e.fuzzy] == [], f"{lang}: marked in the code, not translated"
        kept = catalogs.messages(ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po")
        assert {e.key for e in fresh} == {e.key for e in kept}, f"{lang}: {domain}.po out of date (make messages)"
    makefile = (ROOT / "Makefile").read_text()
    assert f"makemessages{'' if domain == 'django' else ' --domain=djangojs'} --all" in makefile  # `make messages` runs it.


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_text_the_scripts_share_with_the_pages_is_translated_the_same(lang):
    """The scripts' words for a hand, an undo or the deal are the pages' words: one translation, in both catalogs."""
    pages = {e.key: e.msgstr for e in catalogs.messages(PO[lang])}
    shared = [e for e in catalogs.messages(JS_PO[lang]) if e.key in pages]
    assert len(shared) >= 5
    assert [e.msgid for e in shared if e.msgstr != pages[e.key]] == []


def test_no_script_text_is_carried_in_a_data_attribute():
    """The scripts' texts come from the JavaScript catalog, counted with ngettext: none is rendered into the page for them."""
    carried = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        carried += [f"{path.relative_to(ROOT)}: {m}" for m in re.findall(r'data-[\w-]+="[^"]*\{%\s*(?:block)?trans', path.read_text())]
    assert carried == []


def test_the_rules_engine_messages_are_in_the_catalogs():
    source = (ROOT / "scores" / "engine" / "rules.py").read_text()
    marked = set(re.findall(r'N_\((["\'])(.+?)\1\)', source))
    assert len(marked) >= 20
    keys = {e.msgid for e in catalogs.messages(PO["mt"])}
    assert {text.replace("\\'", "'") for _quote, text in marked} <= keys


# The scripts' texts: Django's JavaScript catalog ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_page_loads_the_catalog_of_its_own_language(client, lang):
    html = client.get(reverse("scores:rules"), headers={"accept-language": lang}).content.decode()
    url = reverse("scores:javascript_catalog", args=[lang])
    assert url == f"/jsi18n/{lang}/"
    # Before the scripts that read it (all deferred: they run in this order).
    assert html.index(f'<script src="{url}" defer></script>') < html.index("scores/app.js")


@pytest.mark.django_db
def test_the_catalog_speaks_the_language_its_url_names_whatever_the_browser_or_cookie_says(client):
    client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    response = client.get(reverse("scores:javascript_catalog", args=["mt"]), headers={"accept-language": "vi"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Content-Language"] == "mt"
    script = response.content.decode()
    maltese = {e.msgid: e.msgstr for e in catalogs.messages(JS_PO["mt"])}
    assert json.dumps(maltese["Offline"][0]) in script and json.dumps(maltese["Hand %(number)s was undone."][0]) in script
    assert "n%100>10 && n%100<20" in script  # Maltese's four plural forms, for ngettext.
    italian = {e.msgid: e.msgstr for e in catalogs.messages(JS_PO["it"])}
    assert json.dumps(italian["Offline"][0]) not in script


@pytest.mark.django_db
def test_the_catalog_is_asked_again_each_time_and_answers_304_while_it_is_the_same(client):
    url = reverse("scores:javascript_catalog", args=["vi"])
    first = client.get(url)
    assert first["Cache-Control"] == "no-cache" and first.has_header("Last-Modified")
    assert client.get(url, headers={"if-modified-since": first["Last-Modified"]}).status_code == 304


@pytest.mark.django_db
def test_the_catalog_of_a_language_the_app_does_not_speak_is_not_found(client):
    for lang in ("de", "xx"):
        assert client.get(f"/jsi18n/{lang}/").status_code == 404
    assert client.get(reverse("scores:javascript_catalog", args=["en"])).status_code == 200  # The source language: no catalog.


# Every page in every language ----------------------------------------------------------------------


@pytest.fixture
def seeded(league, owner, make_user, night_of_four):
    """A league with finished, partnership and unfinished games (of the players of the card night of four), a second
    member, an invite, a public link, a season and two guests."""
    g1, _g2, g3 = build(league)
    member = Membership.objects.get(user=make_user("sam", league, Role.SCORER))
    invite = Invite.objects.create(league=league, role=Role.VIEWER, created_by=owner)
    league.public_token = league.new_token()
    league.save()
    job = ImportJob.objects.create(
        league=league, user=owner, filename="history.json", source=b"{}", status=ImportJob.Status.STORING, games=3
    )
    player = Player.objects.get(name="Ann")
    # A season, and two guests who could be one person (the merge's preview).
    standings_services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 1), by=owner)
    guests = (people_services.add_guest(league=league, name="Gil"), people_services.add_guest(league=league, name="Gill"))
    return {
        "league": league,
        "finished": g1,
        "game": g3,
        "member": member,
        "invite": invite,
        "player": player,
        "job": job,
        "night": night_of_four,
        "guests": guests,
    }


def _restore_token(game: Game) -> str:
    state = selectors.load_game(game)
    pitcher = state.table.seats[0]
    side = state.table.side(pitcher)
    undone = hand(pitcher, 1, side, side)
    return restore_token(game.pk, Game.objects.get(pk=game.pk).version, len(state.hands) + 1, undone)


def member_pages(s) -> dict[str, str]:
    slug, game = s["league"].slug, s["game"]
    return {
        "home": reverse("scores:home"),
        "rules": reverse("scores:rules"),
        "game_new": reverse("scores:game_new", args=[slug]),
        # As after an undo without JavaScript: the page offers "Restore" (a hand the rules take, as the next one).
        "game_detail": reverse("scores:game_detail", args=[slug, game.pk]) + "?" + urlencode({"restore": _restore_token(game)}),
        "hand_edit": reverse("scores:hand_edit", args=[slug, game.pk, 1]),
        "auction": reverse("scores:auction", args=[slug, game.pk]),
        "watch": reverse("scores:watch", args=[game.share_token]),
        "league_new": reverse("scores:league_new"),
        "league_detail": reverse("scores:league_detail", args=[slug]),
        "game_list": reverse("scores:game_list", args=[slug]),
        "player_detail": reverse("scores:player_detail", args=[slug, s["player"].pk]),
        "league_settings": reverse("scores:league_settings", args=[slug]),
        "league_delete": reverse("scores:league_delete", args=[slug]),
        "member_list": reverse("scores:member_list", args=[slug]),
        "league_import": reverse("scores:league_import", args=[slug]),
        "import_job": reverse("scores:import_job", args=[slug, s["job"].pk]),
        "invite_accept": reverse("scores:invite_accept", args=[s["invite"].token]),
        "public_league": reverse("scores:public_league", args=[s["league"].public_token]),
        "public_game": reverse("scores:public_game", args=[s["league"].public_token, s["finished"].pk]),
        "password_change": reverse("password_change"),
        "password_change_done": reverse("password_change_done"),
        "season_list": reverse("scores:season_list", args=[slug]),
        "night_list": reverse("scores:night_list", args=[slug]),
        "night_new": reverse("scores:night_new", args=[slug]),
        "night_detail": reverse("scores:night_detail", args=[slug, s["night"].pk]),
        "night_screen": reverse("scores:night_screen", args=[slug, s["night"].pk]),
        "round_print": reverse("scores:round_print", args=[slug, s["night"].pk, 1]),
        "people": reverse("scores:people", args=[slug]),
        "player_rename": reverse("scores:player_rename", args=[slug, s["player"].pk]),
        "merge": reverse("scores:merge", args=[slug]) + "?" + urlencode({"keep": s["guests"][0].pk, "drop": s["guests"][1].pk}),
    }


ANONYMOUS_PAGES = {
    "login": "/accounts/login/",
    "signup": "/accounts/signup/",
    "password_reset": "/accounts/password_reset/",
    "password_reset_done": "/accounts/password_reset/done/",
    "password_reset_confirm": "/accounts/reset/MQ/bad-token/",
    "password_reset_complete": "/accounts/reset/done/",
}
# Routes with no page of their own: writes (POST only), file downloads, and the phone's files (manifest,
# service worker, QR code image).
NOT_PAGES = {
    "hand_create", "hand_undo", "hand_delete", "league_public_link", "member_role", "member_remove", "invite_new",
    "invite_revoke", "game_watch_link", "league_export_json", "league_export_csv", "game_export_json", "game_export_csv",
    "hand_sync", "rematch", "manifest", "service_worker", "watch_qr", "hand_restore", "javascript_catalog",
    "season_rename", "round_new", "table_scorer", "guest_new", "player_archive", "player_claim", "claim_decide",
    "night_export_json", "night_export_csv", "game_rules", "game_delete", "paper_result",
}  # fmt: skip


def test_every_page_of_the_app_is_walked(seeded):
    """New pages join the walk: every named route of the app is a page below or a write/download."""
    names = {p.name for p in get_resolver("scores.urls").url_patterns if isinstance(p, URLPattern)}
    assert names == (set(member_pages(seeded)) - {"password_change", "password_change_done"}) | {"signup"} | NOT_PAGES


def _data_words(s) -> set[str]:
    """Names and values the league's own data puts on the pages, the same in every language."""
    words = {"Thursday", "Ann", "Bob", "Cat", "Dan", "Us", "Them", "olive", "sam", "g1", "g2", "g3", "&", "→", "+", "/", "history.json"}
    words |= {"Friday", "Spring", "Gil", "Gill", "JSON"}
    return words | {s["invite"].token, s["league"].public_token, s["game"].share_token}


def _leftover_english(english: str, translated: str, lang: str, data: set[str]) -> set[str]:
    """Words of the translated page that are also on the English page, apart from names, numbers and links."""
    allowed = SHARED | SHARED_BY_LANGUAGE[lang] | data
    same = visible_words(translated) & visible_words(english)
    return {w for w in same if w not in allowed and "/" not in w and not re.fullmatch(r"[\d.,:+%\-\u2212\u2013]+", w)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_renders_in_the_language_with_no_english_left(client, owner, seeded, lang):
    client.force_login(owner)
    data = _data_words(seeded)
    leftover = {}
    for name, url in member_pages(seeded).items():
        english = client.get(url)
        page = client.get(url, headers={"accept-language": lang})
        assert (english.status_code, page.status_code) == (200, 200), name
        html = page.content.decode()
        assert lang_of(english.content.decode()) == "en" and lang_of(html) == lang, name
        leftover[name] = _leftover_english(english.content.decode(), html, lang, data)
    assert {name: words for name, words in leftover.items() if words} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_account_pages_render_in_the_language_with_no_english_left(client, seeded, lang):
    data = _data_words(seeded)
    leftover = {}
    for name, url in ANONYMOUS_PAGES.items():
        english, page = client.get(url), client.get(url, headers={"accept-language": lang})
        assert (english.status_code, page.status_code) == (200, 200), name
        assert lang_of(page.content.decode()) == lang
        leftover[name] = _leftover_english(english.content.decode(), page.content.decode(), lang, data)
    assert {name: words for name, words in leftover.items() if words} == {}


@pytest.fixture
def error_pages(settings, client):
    """Production's error pages (DEBUG off), and two views that fail on purpose (tests/error_urls.py)."""
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.error_urls"
    client.raise_request_exception = False


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_error_pages_are_the_apps_own_in_the_language(client, owner, league, error_pages, lang):
    """Django's own 400, 403, 404, 500 and CSRF pages are English and its 405 is blank: the app's are in the site's
    layout and the language."""
    League.objects.create(name="Friday Pitch", slug="friday")  # Olive is no member of it: its pages are a 404 to her.
    client.force_login(owner)
    strict = Client(enforce_csrf_checks=True)
    pages = {
        "no such page": (lambda headers: client.get("/no-such-page/", headers=headers), 404),
        "another league": (lambda headers: client.get(reverse("scores:league_detail", args=["friday"]), headers=headers), 404),
        "forbidden": (lambda headers: client.get("/test-forbidden/", headers=headers), 403),
        "server error": (lambda headers: client.get("/test-broken/", headers=headers), 500),
        "bad request": (lambda headers: client.get("/test-bad-request/", headers=headers), 400),
        # A write opened as a page: Django's empty 405, filled by scores.errors.MethodNotAllowedPage.
        "method": (lambda headers: client.get(reverse("scores:league_public_link", args=["friday"]), headers=headers), 405),
        "csrf": (lambda headers: strict.post(reverse("login"), {"username": "olive", "password": PASSWORD}, headers=headers), 403),
    }
    leftover = {}
    for name, (get, status) in pages.items():
        english, page = get({}), get({"accept-language": lang})
        assert (english.status_code, page.status_code) == (status, status), name
        html = page.content.decode()
        assert lang_of(english.content.decode()) == "en" and lang_of(html) == lang, name
        assert re.search(r'<nav class="navbar navbar-dark [^"]*site-header"', html), name  # The site's layout, not Django's bare page.
        leftover[name] = _leftover_english(english.content.decode(), html, lang, {"olive"})
    assert {name: words for name, words in leftover.items() if words} == {}


def test_the_error_pages_say_what_happened(client, error_pages):
    assert "Page not found" in client.get("/no-such-page/").content.decode()
    assert "The server could not understand this request." in client.get("/test-bad-request/").content.decode()
    assert "This address does not answer a request like this one." in client.get(reverse("logout")).content.decode()
    assert "Your account may not do this here." in client.get("/test-forbidden/").content.decode()
    assert "The server could not answer just now." in client.get("/test-broken/").content.decode()
    csrf = Client(enforce_csrf_checks=True).post(reverse("login"), {"username": "olive", "password": PASSWORD})
    assert "The form was out of date" in csrf.content.decode()


def test_the_405_page_keeps_its_status_and_allow_header(client, owner, four_player_game, error_pages):
    client.force_login(owner)
    url = reverse("scores:hand_undo", args=[four_player_game.league.slug, four_player_game.pk])
    response = client.get(url, headers={"accept-language": "mt"})
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert response["Content-Type"] == "text/html; charset=utf-8" and lang_of(response.content.decode()) == "mt"
    assert '<h1 class="h3">Mhux disponibbli b\'dan il-mod</h1>' in response.content.decode()
    assert four_player_game.hands.count() == 0


def test_a_405_with_words_of_its_own_is_left_as_it_is(rf):
    """Only Django's empty answer gets the page: a view that says why keeps its words."""
    said = MethodNotAllowedPage(lambda request: HttpResponseNotAllowed(["POST"], content=b"post it"))(rf.get("/"))
    assert said.content == b"post it"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_the_manifest_is_in_the_language_of_its_url_and_each_page_links_its_own(client, lang):
    """Chromium fetches the manifest without cookies: the page's link names the language, whatever the browser says."""
    html = client.get(reverse("scores:rules"), headers={"accept-language": lang}).content.decode()
    url = reverse("scores:manifest", args=[lang])
    assert url == f"/manifest/{lang}.webmanifest" and f'<link rel="manifest" href="{url}">' in html
    data = json.loads(client.get(url, headers={"accept-language": "vi" if lang != "vi" else "it"}).content)
    with translation.override(lang):
        name, description = (
            translation.gettext("Pitch League"),
            translation.gettext("Keep score of Pitch at the table, and standings for your league."),
        )
    assert (data["lang"], data["name"], data["description"]) == (lang, name, description)
    if lang != "en":
        assert (data["name"], data["description"]) != ("Pitch League", "Keep score of Pitch at the table, and standings for your league.")
    assert client.get(f"/manifest/{lang}.webmanifest")["Content-Language"] == lang


@pytest.mark.django_db
def test_the_manifest_of_a_language_the_app_does_not_speak_is_not_found(client):
    assert client.get("/manifest/de.webmanifest").status_code == 404


def test_the_500_page_needs_no_request_and_no_database():
    """Django renders it with no context at all, maybe because the database is down: it must not ask for a user.

    No django_db mark: pytest-django fails the test on any database access."""
    with translation.override("mt"):
        html = render_to_string("500.html")
    assert lang_of(html) == "mt" and "Xi ħaġa marret ħażin" in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_watch_page_speaks_the_new_language_after_a_switch(client, four_player_game, lang):
    """The browser asks again with the ETag of the English page: it gets the page in the new language, not a 304."""
    url = reverse("scores:watch", args=[four_player_game.share_token])
    english = client.get(url)
    assert {"HX-Request", "Cookie", "Accept-Language"} <= {v.strip() for v in english["Vary"].split(",")}
    client.post("/i18n/setlang/", {"language": lang, "next": url})
    page = client.get(url, headers={"if-none-match": english["ETag"]})
    assert page.status_code == 200 and page["ETag"] != english["ETag"]
    html = page.content.decode()
    assert lang_of(html) == lang
    assert _leftover_english(english.content.decode(), html, lang, {"Thursday", "Ann", "Bob", "Cat", "Dan", "kitchen"}) == set()
    assert client.get(url, headers={"if-none-match": page["ETag"]}).status_code == 304  # Polling stays cheap.


def test_the_watch_etag_follows_the_browser_language_too(client, four_player_game):
    url = reverse("scores:watch", args=[four_player_game.share_token])
    english = client.get(url)
    italian = client.get(url, headers={"if-none-match": english["ETag"], "accept-language": "it"})
    assert italian.status_code == 200 and lang_of(italian.content.decode()) == "it"


# Choosing the language ------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "lang", "phrase"),
    [
        (None, "en", "The rules of Pitch"),
        ("fr-FR,fr;q=0.9", "en", "The rules of Pitch"),  # Not one of ours: English.
        ("af-ZA,af;q=0.9,en;q=0.5", "af", "Die reëls van Pitch"),
        ("ceb", "ceb", "Ang mga lagda sa Pitch"),
        ("it-IT,it;q=0.9", "it", "Le regole del Pitch"),
        ("mt-MT,mt;q=0.9,en-GB;q=0.8", "mt", "Ir-regoli tal-Pitch"),
        ("vi-VN,vi;q=0.9", "vi", "Luật chơi Pitch"),
        ("de-DE,de;q=0.9,vi;q=0.7", "vi", "Luật chơi Pitch"),  # The first of ours in the browser's list.
    ],
)
def test_the_browser_language_chooses_the_page_language(client, header, lang, phrase):
    response = client.get(reverse("scores:rules"), **({"headers": {"accept-language": header}} if header else {}))
    html = response.content.decode()
    assert lang_of(html) == lang
    assert f'<h1 class="h3">{phrase}</h1>' in html


@pytest.mark.django_db
def test_the_switcher_is_on_every_page_and_names_each_language_in_its_own_words(client):
    html = client.get(reverse("scores:rules"), headers={"accept-language": "mt"}).content.decode()
    form = re.search(r'<form class="language-switcher" method="post" action="/i18n/setlang/">.*?</form>', html, re.S)
    assert form is not None
    # A button per language in the menu: one tap changes it.
    options = re.findall(
        r'<button type="submit" name="language" value="([a-z]+)" lang="\1" class="[^"]*"( aria-current="true")?>([^<]+)</button>',
        form.group(0),
    )
    assert [(code, name) for code, _selected, name in options] == [
        ("en", "English"), ("af", "Afrikaans"), ("ceb", "Cebuano"), ("it", "Italiano"), ("mt", "Malti"), ("vi", "Tiếng Việt"),
    ]  # fmt: skip
    assert [code for code, selected, _name in options if selected] == ["mt"]
    assert 'name="next" value="/rules/"' in form.group(0)
    assert ">Lingwa</legend>" in form.group(0)


@pytest.mark.django_db
def test_the_switcher_remembers_the_choice_over_the_browser_language(client):
    response = client.post("/i18n/setlang/", {"language": "vi", "next": "/rules/"}, headers={"accept-language": "it"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "vi"
    later = client.get("/rules/", headers={"accept-language": "it"}).content.decode()
    assert lang_of(later) == "vi" and "Luật chơi Pitch" in later
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert lang_of(client.get("/rules/", headers={"accept-language": "it"}).content.decode()) == "en"


@pytest.mark.django_db
def test_the_switcher_refuses_a_language_the_app_does_not_speak(client):
    client.post("/i18n/setlang/", {"language": "mt", "next": "/"})
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/rules/"})
    assert response.status_code == 302
    assert lang_of(client.get("/rules/").content.decode()) == "mt"  # Unchanged.


@pytest.mark.django_db
def test_the_language_choice_is_kept_for_a_year(client):
    response = client.post("/i18n/setlang/", {"language": "it", "next": "/rules/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME]["max-age"] == 365 * 24 * 60 * 60


def test_a_signed_in_players_choice_is_kept_on_the_account_and_follows_them_to_another_phone(client, owner):
    client.force_login(owner)
    client.post("/i18n/setlang/", {"language": "mt", "next": "/"})
    assert AccountLanguage.objects.get(user=owner).language == "mt"
    client.post("/i18n/setlang/", {"language": "vi", "next": "/"})
    assert AccountLanguage.objects.get(user=owner).language == "vi"  # One row, the latest choice.

    phone = Client()
    response = phone.post(reverse("login"), {"username": "olive", "password": PASSWORD}, headers={"accept-language": "it"})
    assert response.status_code == 302
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "vi" and cookie["max-age"] == 365 * 24 * 60 * 60
    assert lang_of(phone.get("/rules/", headers={"accept-language": "it"}).content.decode()) == "vi"


def test_a_log_in_without_a_stored_language_keeps_the_browsers(client, owner):
    response = client.post(reverse("login"), {"username": "olive", "password": PASSWORD}, headers={"accept-language": "it"})
    assert response.status_code == 302 and settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert lang_of(client.get("/rules/", headers={"accept-language": "it"}).content.decode()) == "it"


def test_only_a_signed_in_players_own_language_is_stored(client, owner):
    client.post("/i18n/setlang/", {"language": "af", "next": "/"})  # Not signed in: the cookie only.
    client.force_login(owner)
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})  # Not a language at all.
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})  # Django speaks it; the app does not.
    assert not AccountLanguage.objects.exists()


# Dates and numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "long", "short", "number", "grouped"),
    [
        ("en", "Nov. 29, 2026", "11/29/2026", "1234.5", "1,234,567.5"),
        ("af", "29 November 2026", "2026-11-29", "1234,5", "1\xa0234\xa0567,5"),
        ("ceb", "Nobyembre 29, 2026", "11/29/2026", "1234.5", "1,234,567.5"),
        ("it", "29 novembre 2026", "29/11/2026", "1234,5", "1.234.567,5"),
        ("mt", "29 ta\u2019 Novembru 2026", "29/11/2026", "1234.5", "1,234,567.5"),
        ("vi", "29 tháng 11 năm 2026", "29/11/2026", "1234,5", "1.234.567,5"),
    ],
)
def test_dates_and_numbers_are_written_the_local_way(client, owner, league, lang, long, short, number, grouped):
    game = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat"], code="late", played_on=datetime.date(2026, 11, 29), rules=rules.Rules()
    )
    client.force_login(owner)
    headers = {"accept-language": lang}
    assert f"{long}</h1>" in client.get(game.get_absolute_url(), headers=headers).content.decode()
    games = client.get(reverse("scores:game_list", args=[league.slug]), headers=headers).content.decode()
    assert f"<strong>{long}</strong>" in games and short not in games  # One way of writing a date on every page.
    with translation.override(lang):
        assert formats.localize(1234.5) == number
        assert formats.number_format(1234567.5, 1, force_grouping=True) == grouped  # Thousands as the language groups them.


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "Spring: the games played since March 8, 2026."),
        ("af", "Spring: die potjies wat sedert 8 Maart 2026 gespeel is."),
        ("it", "Spring: le partite giocate dal giorno 8 marzo 2026."),
        ("vi", "8 tháng 3 năm 2026"),
    ],
)
def test_a_date_in_a_sentence_reads_as_the_language_writes_it(client, owner, league, lang, text):
    """Vietnamese: "8 tháng 3 năm 2026", not Django's "Ngày 08 tháng 03": no capital, no zero in the middle of a sentence."""
    standings_services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 8), by=owner)
    client.force_login(owner)
    html = client.get(reverse("scores:league_detail", args=[league.slug]), headers={"accept-language": lang}).content.decode()
    sentence = re.search(r'<p class="small mb-1 season-dates">(.*?)</p>', html).group(1)
    assert text in sentence
    assert "Ngày" not in sentence and " 08 " not in sentence


def test_chart_coordinates_stay_numbers_for_svg_in_every_language(client, owner, league):
    build(league)
    client.force_login(owner)
    for lang in LANGUAGES:
        html = client.get(reverse("scores:league_detail", args=[league.slug]), headers={"accept-language": lang}).content.decode()
        coordinates = re.findall(r'<circle cx="([^"]+)" cy="([^"]+)"', html)
        assert coordinates, lang
        assert all(re.fullmatch(r"-?\d+(\.\d+)?", value) for pair in coordinates for value in pair), lang


def test_italian_dates_have_lower_case_months_and_no_leading_zero(client, owner, league):
    game = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat"], code="dec", played_on=datetime.date(2026, 12, 1), rules=rules.Rules()
    )
    client.force_login(owner)
    assert "1 dicembre 2026</h1>" in client.get(game.get_absolute_url(), headers={"accept-language": "it"}).content.decode()
    with translation.override("it"):
        assert formats.date_format(datetime.date(2026, 5, 9)) == "9 maggio 2026"
        assert formats.date_format(datetime.date(2026, 12, 1), "YEAR_MONTH_FORMAT") == "dicembre 2026"


def test_chart_labels_and_tooltips_write_numbers_the_local_way():
    series = [charts.Series("Ann", [(1, 0.5), (2, 2.5)])]
    english = charts.line_chart(series)
    with translation.override("it"):
        italian = charts.line_chart(series)
        assert (signed(2.44), signed(-1.0), signed(0.05)) == ("+2,4", "-1,0", "+0,1")
    assert [dot.title for dot in english.lines[0].dots] == ["Ann: 0.5", "Ann: 2.5"]
    assert [dot.title for dot in italian.lines[0].dots] == ["Ann: 0,5", "Ann: 2,5"]
    assert [tick.label for tick in italian.y_ticks] == ["0", "0,5", "1", "1,5", "2", "2,5"]
    assert (signed(2.44), signed(-1.0)) == ("+2.4", "-1.0")


def test_a_rating_change_on_a_page_is_written_the_local_way(client, owner, league):
    build(league)
    client.force_login(owner)
    url = reverse("scores:player_detail", args=[league.slug, Player.objects.get(name="Ann").pk])
    italian = client.get(url, headers={"accept-language": "it"}).content.decode()
    changes = re.findall(r"<td>([+-]\d+[.,]\d)</td>", italian)
    assert changes and all("," in change for change in changes)
    titles = re.findall(r"<title>[^<:]+: (-?[\d.,]+)</title>", italian)  # The rating chart's tooltips.
    assert titles and not any("." in title for title in titles)


@pytest.mark.django_db
def test_a_date_field_keeps_the_value_a_date_input_reads_in_italian(client, owner, league):
    client.force_login(owner)
    url = reverse("scores:game_list", args=[league.slug]) + "?start=2026-11-01"
    response = client.get(url, headers={"accept-language": "it"})
    assert response.status_code == 200
    assert 'value="2026-11-01"' in response.content.decode()


# Messages from the code: the rules engine, forms, Django's own ----------------------------------------


def test_the_rules_engine_problems_are_said_in_the_language():
    with pytest.raises(rules.RulesError) as error:
        rules.auction_result(rules.Table(seats=("Ann", "Bob", "Cat")), "Ann", [("Cat", 2)])
    assert str(error.value) == "bids, bid 1: Bob bids next, not Cat"
    with translation.override("it"):
        assert problems.describe(error.value.problems) == "bids, bid 1: tocca a Bob fare un'offerta, non a Cat"
    with pytest.raises(rules.RulesError) as error:
        rules.replay(rules.Table(seats=("Ann", "Bob")), [hand("Ann", 5, "Ann", None)])
    with translation.override("mt"):
        assert (
            problems.describe(error.value.problems) == "rawnd 1, bid: l-offerta trid tkun 1-4, iżda hija 5; rawnd 1, low: Baxx huwa meħtieġ"
        )
    with translation.override("vi"):
        assert problems.describe(error.value.problems) == "vòng 1, bid: giá thầu phải là 1-4, nhưng lại là 5; vòng 1, low: Thấp là bắt buộc"
    assert str(error.value) == "hand 1, bid: bid must be 1-4, got 5; hand 1, low: Low is required"  # English stays as it was.


@pytest.mark.parametrize(("target", "italian"), [(1, "fino a 1 punto"), (11, "fino a 11 punti")])
def test_the_rules_line_counts_the_target_so_a_language_can_name_the_points(target, italian):
    played_by = rules.Rules(target=target)
    assert rules_line(played_by) == f"4-point · to {target}"
    with translation.override("it"):
        assert rules_line(played_by) == f"Da 4 punti · {italian}"


def test_a_refused_bid_says_pass_as_a_verb_of_its_own():
    """Not "may bid pass, 3 or 4": Italian read "può offrire passo, 3 o 4"."""
    table = rules.Table(seats=("Ann", "Bob", "Cat"))
    with pytest.raises(rules.RulesError) as error:
        rules.auction_result(table, "Cat", [("Ann", 2), ("Bob", 2)])
    assert error.value.problems[0].message == "Bob may pass or bid 3 or 4, not 2"
    with translation.override("it"):
        assert problems.message(error.value.problems[0]) == "Bob può passare o offrire 3 o 4, non 2"
    with translation.override("vi"):
        assert problems.message(error.value.problems[0]) == "Bob được bỏ hoặc đấu thầu 3 hoặc 4, không được 2"


def test_a_stuck_dealer_problem_lists_the_bids_in_the_language():
    with pytest.raises(rules.RulesError) as error:
        rules.auction_result(rules.Table(seats=("Ann", "Bob", "Cat")), "Cat", [("Ann", None), ("Bob", None), ("Cat", None)])
    assert error.value.problems[0].message == "Cat may bid 2, 3 or 4, not pass"
    with translation.override("af"):
        assert problems.message(error.value.problems[0]) == "Cat mag 2, 3 of 4 bie, nie pas nie"
    with translation.override("ceb"):
        assert problems.message(error.value.problems[0]) == "si Cat maka-bid og 2, 3 o 4, dili pas"


def test_an_undo_that_finds_a_later_hand_says_so_in_maltese(client, owner, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Bob", "Bob"))
    client.force_login(owner)
    url = reverse("scores:hand_undo", args=[four_player_game.league.slug, four_player_game.pk])
    response = client.post(url, {"number": "5"}, headers={"accept-language": "mt"}, follow=True)
    assert "Ir-rawnd 5 m&#x27;għadux l-aħħar rawnd, għalhekk ma treġġa&#x27; lura xejn." in response.content.decode()


def test_a_hand_posted_half_done_is_refused_in_vietnamese(client, owner, four_player_game):
    client.force_login(owner)
    url = reverse("scores:hand_create", args=[four_player_game.league.slug, four_player_game.pk])
    response = client.post(url, {"number": "1", "pitcher": "Bob", "bid": "2"}, headers={"accept-language": "vi"})
    html = response.content.decode()
    assert "Chạm vào người ăn điểm Cao." in html and "Chạm vào người ăn lá Bồi, hoặc Không được chia." in html
    assert four_player_game.hands.count() == 0


def test_a_second_phone_is_told_in_its_language_that_the_hand_was_already_recorded(client, owner, four_player_game):
    """The notice's second sentence was marked inside an f-string, so it stayed English in every language."""
    services.record_hand(game=four_player_game, hand=hand("Bob", 3, "Bob", "Bob"))
    client.force_login(owner)
    url = reverse("scores:hand_create", args=[four_player_game.league.slug, four_player_game.pk])
    taps = {"pitcher": "Dan", "bid": "2", "high": "Dan", "low": "Dan", "jack": "-", "game": "Ann", "number": "1", "key": str(uuid.uuid4())}
    html = client.post(url, taps, headers={"accept-language": "it"}, follow=True).content.decode()
    assert "La mano 1 era già stata registrata. Ecco la partita com&#x27;è adesso." in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "mismatch", "required"),
    [
        ("mt", "Iż-żewġ passwords ma jaqblux.", "Din il-kaxxa trid timtela."),
        ("ceb", "Dili managsama ang duha ka password.", "Kinahanglan kining butangan."),
        ("af", "Die twee wagwoordvelde stem nie ooreen nie", "Dié veld is verpligtend."),  # Django's own af catalog.
    ],
)
def test_django_own_form_messages_are_in_the_language(client, lang, mismatch, required):
    """Django has no Cebuano or Maltese catalog: the project's catalogs carry its messages for them."""
    form = {"username": "", "password1": "a-long-test-password", "password2": "another-long-password"}
    html = client.post(reverse("scores:signup"), form, headers={"accept-language": lang}).content.decode()
    assert mismatch.replace("'", "&#x27;") in html
    assert required in html


@pytest.mark.django_db
def test_the_password_reset_mail_is_in_the_language_it_was_asked_in(client, django_user_model):
    django_user_model.objects.create_user("vy", "vy@example.com", PASSWORD)
    client.post(reverse("password_reset"), {"email": "vy@example.com"}, headers={"accept-language": "vi"})
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Mật khẩu Giải Pitch mới của bạn"
    assert "Có người yêu cầu đặt lại mật khẩu tài khoản Giải Pitch của bạn (vy)." in mail.outbox[0].body


@pytest.mark.parametrize(("minutes", "text"), [(1, "1 minuta"), (2, "2 minuti"), (15, "15-il minuta"), (20, "20 minuta")])
def test_the_maltese_login_limit_counts_minutes_the_maltese_way(minutes, text):
    """Maltese has four plural forms; 11 to 19 take the singular with -il."""
    singular = "Too many failed log-ins for this account from your network. Try again in %(minutes)s minute."
    plural = "Too many failed log-ins for this account from your network. Try again in %(minutes)s minutes."
    with translation.override("mt"):
        assert translation.ngettext(singular, plural, minutes) % {"minutes": minutes} == (
            f"Wisq tentattivi falluti biex tidħol għal dan il-kont min-netwerk tiegħek. Erġa' pprova wara {text}."
        )


# Marked strings that makemessages can see ---------------------------------------------------------------

MARKERS = {"gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy", "_", "N_"}


def test_no_message_is_marked_inside_an_f_string():
    """makemessages does not look inside f-strings: a message marked there is never translated (ruff's INT rules
    catch an f-string passed to gettext, not gettext called inside one)."""
    found = []
    for path in sorted((ROOT / "scores").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.JoinedStr):
                calls = [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
                found += [f"{path.relative_to(ROOT)}:{call.lineno}" for call in calls if call.func.id in MARKERS]
    assert found == []
