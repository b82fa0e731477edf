"""Shared fixtures: leagues and games made through the services, and a phone-sized Chromium."""

from __future__ import annotations

import datetime
import gettext
import os
import shutil
import time

import pytest
from django.conf import settings
from django.core.management import ManagementUtility

from scores.engine import planner, rules
from scores.leagues.models import League, Membership, Player, Role
from scores.nights import services as nights_services
from scores.nights.models import Night
from scores.people import services
from scores.table import services as table_services

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop.
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
PASSWORD = "a-long-test-password"
FOUR = ("Ann", "Bob", "Cat", "Dan")


@pytest.fixture(scope="session", autouse=True)
def compiled_translations(django_test_environment):
    """The .mo files are built, not committed: compile the catalogs (a no-op when they are up to date)."""
    from django.core.management import call_command

    call_command("compilemessages", ignore_patterns=[".venv"], verbosity=0)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests log in often; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def tasks_run_at_once(settings):
    """Background tasks run when enqueued, in the request (test_import_jobs.py runs the real worker too)."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def default_language_after_each_test():
    """A page asked for in another language leaves it active in the thread: the next test starts in English."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
def league(db) -> League:
    return League.objects.create(name="Thursday Pitch", slug="thursday")


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, league: League | None = None, role: str | None = Role.OWNER):
        user = django_user_model.objects.create_user(username=username, password=PASSWORD)
        if league is not None and role is not None:
            Membership.objects.create(league=league, user=user, role=role)
        return user

    return make


@pytest.fixture
def owner(make_user, league):
    return make_user("olive", league, Role.OWNER)


@pytest.fixture
def owner_client(client, owner):
    """A test client logged in as the league's owner."""
    client.force_login(owner)
    return client


@pytest.fixture
def scorer(client, make_user, league):
    """A test client logged in as a scorer of the league."""
    make_user("sam", league, Role.SCORER)
    client.login(username="sam", password=PASSWORD)
    return client


@pytest.fixture
def four_player_game(league):
    return table_services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], code="kitchen", rules=rules.Rules())


@pytest.fixture
def night_of_four(league, owner) -> Night:
    """The owner's card night "Friday" (6 March 2026) of Ann, Bob, Cat and Dan at one partnership table, two rounds,
    its first round seated: the league's players of those names, guests for those it has not."""
    players = [Player.objects.filter(league=league, name=name).first() or services.add_guest(league=league, name=name) for name in FOUR]
    return nights_services.start_night(
        league=league,
        name="Friday",
        played_on=datetime.date(2026, 3, 6),
        seating=planner.Seating(),
        rounds=2,
        game_rules=rules.Rules(),
        players=players,
        by=owner,
    )


def scripts_catalog(lang: str) -> gettext.NullTranslations:
    """The scripts' texts in a language (locale/<lang>/LC_MESSAGES/djangojs.mo), read by Python's gettext: what the
    browser's catalog must say. English has no catalog: its texts are the source."""
    return gettext.translation("djangojs", localedir=settings.LOCALE_PATHS[0], languages=[lang], fallback=True)


def until_routed(page, held: list, count: int = 1) -> None:
    """Until a route's handler that holds requests (``held``) has been given ``count``: Playwright calls it when it next
    hears from the browser, which may be after the page already shows the request under way. Each call into the page
    lets its events in; the caller asserts what it got."""
    deadline = time.monotonic() + 30
    while len(held) < count and time.monotonic() < deadline:
        page.evaluate("0")


def hand(pitcher: str, bid: int, high: str, low: str, jack: str | None = None, game: str | None = None, **kwargs) -> rules.Hand:
    """A hand of the 4-point game."""
    return rules.Hand(pitcher=pitcher, bid=bid, points={"high": high, "low": low, "jack": jack, "game": game}, **kwargs)


# Browser tests: pytest-playwright drives the system Chromium at phone size.
def pytest_collection_modifyitems(config, items):
    if os.path.exists(CHROMIUM) or os.environ.get("REQUIRE_BROWSER"):
        return
    skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM}")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
        ],
    }  # fmt: skip


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # Service workers blocked: page.route does not see the requests a worker makes, and tests hold or drop requests.
    # tests/table/test_browser_phone.py allows them where it checks the worker.
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "service_workers": "block",
    }


@pytest.fixture
def manage(monkeypatch):
    """Run manage.py in this process, as the shell would: returns the exit status."""
    # run_from_argv closes the database connections at the end; the test's transaction must survive it.
    monkeypatch.setattr("django.core.management.base.connections.close_all", lambda: None)

    def run(*argv: str) -> int:
        try:
            ManagementUtility(["manage.py", *argv]).execute()
        except SystemExit as exit_:
            return exit_.code
        return 0

    return run


def pytest_configure(config):
    config.addinivalue_line("markers", "console_errors_expected(*texts): console errors the test causes on purpose")


@pytest.fixture(autouse=True)
def no_console_errors(request):
    """A browser test fails on any console error or uncaught exception in its page (a CSP refusal included).

    A test that cuts the connection on purpose names the errors that causes with ``console_errors_expected``."""
    if "page" not in request.fixturenames or request.node.get_closest_marker("browser") is None:
        yield
        return
    page = request.getfixturevalue("page")
    marker = request.node.get_closest_marker("console_errors_expected")
    expected = marker.args if marker else ()
    errors: list[str] = []

    def console(message) -> None:
        if message.type == "error" and not any(text in message.text for text in expected):
            errors.append(f"console: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    yield errors
    assert not errors, "\n".join(errors)


@pytest.fixture
def scorer_page(live_server, page, make_user, league):
    """A browser page logged in as sam, a scorer of the league, on the league's page."""
    make_user("sam", league, Role.SCORER)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Thursday Pitch").click()
    return page
