"""The tooling around the app: CI lints as `make lint` does, and the capacity run reads and posts the pages as they are.

The capacity run (bench/capacity.py) plays a table as a phone does: it reads the CSRF token, the hand's number
and key, the forms and the watch link from the pages, and posts what it read. If a page changes shape, these tests
say so here rather than in a benchmark's errors.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import re
import sys
import uuid
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from scores.engine import rules
from scores.table import services
from scores.table.models import Game, Hand
from tests.markdown_files import ROOT


def run_apart(coroutine):
    """asyncio.run in a thread of its own: Playwright's browser tests earlier in the run leave an event loop running
    in the main thread, where asyncio.run refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def lint_commands(makefile: str) -> list[str]:
    """The commands of the Makefile's ``lint`` target, with the virtualenv's path written out."""
    recipe = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe, "the Makefile has no lint target"
    return [line.strip().replace("$(VENV)", ".venv") for line in recipe.group(1).splitlines()]


def test_ci_runs_every_lint_command_of_the_makefile():
    commands = lint_commands((ROOT / "Makefile").read_text())
    ci = {line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()}

    assert ".venv/bin/ruff format --check ." in commands
    assert [command for command in commands if command not in ci] == []


@pytest.fixture
def capacity(monkeypatch):
    spec = importlib.util.spec_from_file_location("capacity", ROOT / "bench" / "capacity.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "capacity", module)  # Its dataclasses look their module up there.
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def scorer_phone(scorer):
    """The scorer's client, checking CSRF tokens as the server does for a phone."""
    phone = Client(enforce_csrf_checks=True)
    phone.cookies = scorer.cookies
    return phone


def htmx(table) -> dict[str, str]:
    return {"HTTP_HX_REQUEST": "true", "HTTP_X_CSRFTOKEN": table.fields["csrfmiddlewaretoken"]}


def test_the_capacity_run_reads_the_game_page_and_posts_hands_that_are_stored(capacity, scorer_phone, league):
    game = services.start_game(league=league, seats=list(capacity.SEATS), rules=rules.Rules(target=99))
    table = capacity.Table(None, 0, {"game": game.get_absolute_url(), "cookie": {}}, joins=0, epoch=0)

    table.read(scorer_phone.get(game.get_absolute_url()).content)

    assert table.hand_form == reverse("scores:hand_create", args=[league.slug, game.pk])
    assert table.rematch_form is None
    assert table.watch == reverse("scores:watch", args=[game.share_token])
    assert table.fields["id_number"] == "1"
    for number in (1, 2, 3):  # The first answer is the whole live part; the next ones bring only the number and key.
        posted = table.next_hand()
        assert posted["number"] == str(number)
        uuid.UUID(posted["key"])
        response = scorer_phone.post(table.hand_form, posted, **htmx(table))
        assert response.status_code == 200 and b"alert-danger" not in response.content
        table.read(response.content)
        assert table.fields["id_number"] == str(number + 1)
        assert table.hand_form is not None

    stored = Hand.objects.filter(game=game).order_by("number")
    assert [(h.number, str(h.idempotency_key)) for h in stored][-1] == (3, posted["key"])
    assert stored.count() == 3


def test_the_capacity_run_sees_a_game_won_and_taps_rematch(capacity, scorer_phone, league):
    game = services.start_game(league=league, seats=list(capacity.SEATS), rules=rules.Rules(target=7))
    table = capacity.Table(None, 0, {"game": game.get_absolute_url(), "cookie": {}}, joins=0, epoch=0)
    table.read(scorer_phone.get(game.get_absolute_url()).content)
    all_four = {"pitcher": "Ann", "bid": "4", "high": "Ann", "low": "Ann", "jack": "Ann", "game": "Ann"}

    for _ in range(2):  # Ann makes 4 twice: 8 of 7.
        response = scorer_phone.post(table.hand_form, {**table.next_hand(), **all_four}, **htmx(table))
        table.read(response.content)

    assert table.hand_form is None
    assert table.rematch_form == reverse("scores:rematch", args=[league.slug, game.pk])
    response = scorer_phone.post(table.rematch_form, {"csrfmiddlewaretoken": table.fields["csrfmiddlewaretoken"]})
    assert response.status_code == 302
    rematch = Game.objects.exclude(pk=game.pk).get(league=league)
    assert urlsplit(response["Location"]).path == rematch.get_absolute_url()
    table.read(scorer_phone.get(rematch.get_absolute_url()).content)
    assert table.hand_form == reverse("scores:hand_create", args=[league.slug, rematch.pk])
    assert table.watch == reverse("scores:watch", args=[rematch.share_token])
    assert table.fields["id_number"] == "1"


def test_a_save_the_failover_run_got_no_answer_for_is_sent_again_as_the_same_hand_and_key(capacity, scorer_phone, league):
    """Sent again with other taps under the same key, the app would refuse it: the run would count an error, not a retry."""
    game = services.start_game(league=league, seats=list(capacity.SEATS), rules=rules.Rules(target=99))
    posted: list[str] = []
    answers: list[tuple] = []

    class Load:  # What the run's requests get, set below (the test client is not called from inside the event loop).
        base = "http://testserver"

        async def request(self, kind, method, path, cookies, **options):
            if method == "GET":  # The chart, when the answer asks for it.
                return object(), b"", capacity.Sample(kind, 0, 0, True)
            posted.append(options["data"])
            return answers.pop(0)

    table = capacity.Table(Load(), 0, {"game": game.get_absolute_url(), "cookie": {}}, joins=0, epoch=0)
    table.read(scorer_phone.get(game.get_absolute_url()).content)
    answers.append((None, b"", capacity.Sample("save", 0, 0, False)))
    assert run_apart(table.save()) is False

    # The killed server had stored the hand; the other server answers the same post again.
    form = {"content_type": "application/x-www-form-urlencoded", **htmx(table)}
    assert scorer_phone.post(table.hand_form, posted[0], **form).status_code == 200
    again = scorer_phone.post(table.hand_form, posted[0], **form)
    assert again.status_code == 200 and b"alert-danger" not in again.content
    answers.append((again, again.content, capacity.Sample("save", 0, 0, True)))
    assert run_apart(table.save()) is True

    assert posted[1] == posted[0]
    assert Hand.objects.filter(game=game).count() == 1
    assert table.fields["id_number"] == "2"


def test_a_watching_phone_times_each_save_from_its_answer_to_the_first_answer_that_holds_it(capacity):
    load = capacity.Load(http=None, base="")
    answered = [10.0, 20.0]  # Two saves' answers, in seconds.
    shown = capacity.Shown(load, answered)

    shown.answer(capacity.Sample("watch page", 9.0, 100, True), changed=True)  # Before either save: shows neither.
    shown.answer(capacity.Sample("poll", 12.0, 50, True), changed=True)  # Sent after the first save's answer: holds it.
    assert load.shown == [(10.0, pytest.approx(2050))]

    # A poll sent just before the second save's answer came, with a change in it; the next poll is a 304: the change
    # was that save, shown when the earlier poll's answer came, not the later one's.
    shown.answer(capacity.Sample("poll", 19.99, 30, True), changed=True)
    shown.answer(capacity.Sample("poll", 23.0, 5, True), changed=False)
    assert load.shown[1] == (20.0, pytest.approx(20))
    assert len(load.shown) == 2
