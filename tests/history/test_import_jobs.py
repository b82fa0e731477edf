"""An upload becomes a background import: its page shows progress, then the report or the problems."""

from __future__ import annotations

import io

import pytest
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse

from scores.engine import rules
from scores.history import services, tasks
from scores.history import views as history_views
from scores.history.models import ImportJob
from scores.leagues.models import Player
from scores.table.models import Game, Hand
from tests.history_docs import SPEC_HAND, document, dumps, game, hand

pytestmark = pytest.mark.django_db

DATABASE_BACKEND = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def upload(client, league, content: bytes, name: str = "history.json"):
    return client.post(reverse("scores:league_import", args=[league.slug]), {"file": SimpleUploadedFile(name, content)})


@pytest.mark.django_db(transaction=True)  # The worker commits and closes its connection, as in production.
def test_the_upload_waits_for_the_worker_with_a_progress_bar_then_shows_the_report(client, owner, league, settings):
    """The real database backend and its worker (``manage.py db_worker``), for one job."""
    settings.TASKS = DATABASE_BACKEND
    client.force_login(owner)

    response = upload(client, league, dumps(document(game("kitchen", hands=[SPEC_HAND]), game("garage"))))

    assert response.status_code == 200
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.QUEUED and job.user == owner and job.filename == "history.json"
    assert '<progress id="import-progress"' in response.text and "Waiting to start" in response.text
    assert f'href="{job.get_absolute_url()}">Refresh to see how far it is</a>' in response.text  # Works without JavaScript.
    assert f'hx-get="{job.get_absolute_url()}" hx-trigger="every 1s"' in response.text
    assert not Game.objects.exists()

    call_command("db_worker", batch=True, max_tasks=1, startup_delay=False, reload=False, verbosity=0)

    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.imported == ["kitchen", "garage"] and job.finished_at is not None
    assert job.source == b""  # The file is not kept once it is read.
    assert Hand.objects.filter(game__code="kitchen").count() == 1
    page = client.get(job.get_absolute_url())
    assert "Imported 2 games." in page.text and "<li>kitchen</li>" in page.text
    assert "hx-trigger" not in page.text and "<progress" not in page.text  # Polling stops when the import is over.


def test_htmx_polls_a_fragment_of_the_job(client, owner, league, settings, django_assert_num_queries):
    settings.TASKS = DATABASE_BACKEND
    client.force_login(owner)
    upload(client, league, dumps(document(game("kitchen"))))
    job = ImportJob.objects.get()
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.STORING, games=1)

    url = job.get_absolute_url()
    with django_assert_num_queries(4):  # session, user, the league with the membership, the job
        response = client.get(url, headers={"HX-Request": "true"})

    assert response.status_code == 200 and response["Vary"].count("HX-Request") == 1
    assert response.text.lstrip().startswith('<section id="import-job"') and "<html" not in response.text
    assert "Storing the games · 1 game" in response.text and 'value="60"' in response.text


def test_an_invalid_file_fails_in_the_worker_and_stores_nothing(client, owner, league):
    client.force_login(owner)
    response = upload(client, league, dumps(document(game("a", hands=[hand("Zoe", 5, "Ann")]))))

    assert response.status_code == 400
    assert "Nothing was imported: the file has 2 problems." in response.text
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED and len(job.problems) == 2
    assert not Game.objects.exists() and not Player.objects.exists()


def test_a_file_with_more_games_than_one_import_takes_is_refused_whole(client, owner, league, settings):
    settings.IMPORT_MAX_GAMES = 2
    client.force_login(owner)

    response = upload(client, league, dumps(document(game("a"), game("b"), game("c"))))

    assert response.status_code == 400
    assert "the file holds 3 games; one import takes at most 2" in response.text
    assert not Game.objects.exists()


def test_the_problems_are_in_the_uploaders_language(client, owner, league, settings):
    settings.TASKS = DATABASE_BACKEND  # Run below, outside the request and its language, as the worker runs it.
    client.force_login(owner)
    client.cookies["django_language"] = "it"
    upload(client, league, dumps(document(game("a", hands=[hand("Zed", 2, "Ann")]))))
    job = ImportJob.objects.get()
    assert job.language == "it"

    tasks.import_history.call(job.pk)

    job.refresh_from_db()
    assert job.problems == ["partita \"a\", mano 1, pitcher: il lanciatore deve essere un giocatore al tavolo, invece è 'Zed'"]


def test_a_job_runs_once_even_if_delivered_twice(owner, league, settings):
    settings.TASKS = DATABASE_BACKEND
    job = ImportJob.objects.create(league=league, user=owner, filename="h.json", source=dumps(document(game("kitchen"))))
    tasks.import_history.call(job.pk)
    Game.objects.all().delete()
    tasks.import_history.call(job.pk)  # As if the worker got it again.
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.imported == ["kitchen"] and not Game.objects.exists()


def test_an_upload_bigger_than_the_limit_is_refused_from_its_length_without_reading_it(owner, league, settings):
    settings.IMPORT_MAX_UPLOAD_SIZE = 1000

    class Unread(io.BytesIO):
        def read(self, *args):
            raise AssertionError("the body was read")

        readline = read

    request = RequestFactory().post(
        reverse("scores:league_import", args=[league.slug]), data=b"", content_type="multipart/form-data; boundary=x"
    )
    request.META["CONTENT_LENGTH"] = str(1000 + history_views.FORM_OVERHEAD + 1)
    request.META["wsgi.input"] = Unread()
    request._stream = Unread()
    request.user, request.session = owner, SessionStore()
    request._messages = FallbackStorage(request)

    response = history_views.league_import(request, league.slug)

    assert response.status_code == 413
    assert b"Nothing was imported: the upload is larger than the limit of 1000\xc2\xa0bytes." in response.content
    assert not ImportJob.objects.exists()


def test_another_leagues_owner_cannot_see_the_job(client, owner, league, make_user, settings):
    from scores.leagues.models import League

    settings.TASKS = DATABASE_BACKEND
    job = ImportJob.objects.create(league=league, user=owner, filename="h.json", source=b"{}")
    other = League.objects.create(name="Other", slug="other")
    client.force_login(make_user("oscar", other))
    assert client.get(job.get_absolute_url()).status_code == 404
    assert client.get(reverse("scores:import_job", args=["other", job.pk])).status_code == 404


def test_each_game_is_scored_once(league, monkeypatch):
    calls = []
    replay = rules.replay

    def counted(*args, **kwargs):
        calls.append(args[0])
        return replay(*args, **kwargs)

    monkeypatch.setattr(rules, "replay", counted)
    services.import_history(league=league, source=dumps(document(game("a", hands=[SPEC_HAND]), game("b", hands=[SPEC_HAND]))))
    assert len(calls) == 2


def test_a_known_player_spelled_otherwise_keeps_the_leagues_spelling_and_the_same_scores(league):
    services.import_history(league=league, source=dumps(document(game("first", hands=[SPEC_HAND]))))
    hands = [hand("ann", 3, "ann", "BOB"), hand("ann", 4, "ann", "ann", "ann", "ann")]  # Set back, then out at 1.
    services.import_history(
        league=league, source=dumps(document(game("second", seats=["ann", "BOB", "Cat", "Dan"], hands=hands, rules={"target": 1})))
    )
    second = Game.objects.get(code="second")
    assert [seat.player.name for seat in second.seats.order_by("position")] == ["Ann", "Bob", "Cat", "Dan"]
    assert list(second.sides.order_by("position").values_list("name", flat=True)) == ["Ann", "Bob", "Cat", "Dan"]
    scores = {s.side.name: (s.won, s.delta, s.total) for s in Hand.objects.get(game=second, number=1).scores.select_related("side")}
    assert scores == {"Ann": (1, -3, -3), "Bob": (1, 1, 1), "Cat": (0, 0, 0), "Dan": (0, 0, 0)}
    assert second.status == Game.Status.FINISHED
    ann = second.seats.get(position=0)
    assert (ann.points, ann.pitched, ann.sets, ann.won_high) == (1, 2, 1, 2)


def test_a_team_may_name_its_players_in_another_case_than_the_seats(league):
    teams = [{"name": "Us", "players": ["ann", "CAT"]}, {"name": "Them", "players": ["Bob", "Dan"]}]
    doc = document(game("t", rules={"teams": teams}, hands=[hand("Ann", 2, high="Cat", low="Us", jack="Dan", game="Them")]))
    services.import_history(league=league, source=dumps(doc))
    seats = Game.objects.get(code="t").seats.order_by("position")
    assert [(seat.player.name, seat.side.name) for seat in seats] == [("Ann", "Us"), ("Bob", "Them"), ("Cat", "Us"), ("Dan", "Them")]
