"""A history upload in a real phone-sized Chromium: a progress bar while the worker runs it, then the report."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.conftest import PASSWORD
from tests.history_docs import SPEC_HAND, document, dumps, game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_upload_shows_its_progress_then_the_report_without_a_reload(live_server, page: Page, owner, league, settings, tmp_path):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # Queued until the worker runs.
    history = tmp_path / "history.json"
    history.write_bytes(dumps(document(game("kitchen", hands=[SPEC_HAND]))))
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(owner.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + reverse("scores:league_import", args=[league.slug]))

    page.get_by_label("History file (JSON)").set_input_files(history)
    page.get_by_role("button", name="Import").click()

    expect(page.get_by_role("progressbar", name="Waiting to start")).to_be_visible()
    expect(page.get_by_role("link", name="Refresh to see how far it is")).to_be_visible()
    call_command("db_worker", batch=True, max_tasks=1, startup_delay=False, reload=False, verbosity=0)
    expect(page.get_by_text("Imported 1 game.")).to_be_visible()  # htmx asked again; the page was not reloaded.
    expect(page.get_by_role("progressbar")).to_have_count(0)
    expect(page.get_by_role("listitem").filter(has_text="kitchen")).to_be_visible()
