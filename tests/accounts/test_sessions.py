"""A session cookie that cannot be one of ours is no session: never a query with it, never a 500; a session the
database could not read is told as the database's error."""

from __future__ import annotations

import logging
import traceback

import pytest
from django.db import OperationalError, connection
from django.urls import reverse

from scores.accounts import offline_pages
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# A NUL byte in a long enough key reached PostgreSQL, which refuses NUL in text: a 500 for whoever sent it.
MALFORMED = ["abcdefgh\x00ijklmnop", "abc\x00def", "x" * 41, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "abcdefgh'; --"]


@pytest.mark.parametrize("key", MALFORMED)
def test_a_malformed_session_cookie_is_no_session(client, key):
    client.raise_request_exception = False
    response = client.get(reverse("scores:home"), HTTP_COOKIE=f"sessionid={key}")
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated


@pytest.mark.parametrize("key", MALFORMED[:1])
def test_logging_in_with_a_malformed_session_cookie_starts_a_new_session(client, make_user, key):
    make_user("olive")
    client.raise_request_exception = False
    response = client.post(reverse("login"), {"username": "olive", "password": PASSWORD}, HTTP_COOKIE=f"sessionid={key}")
    assert response.status_code == 302
    new_key = response.cookies["sessionid"].value
    assert new_key != key and len(new_key) == 32
    assert client.get(reverse("scores:home")).context["user"].username == "olive"


def test_a_real_session_still_works(client, make_user):
    client.force_login(make_user("olive"))
    assert client.get(reverse("scores:home")).context["user"].username == "olive"


def test_a_database_error_while_reading_the_session_is_logged_as_itself_and_keeps_the_session(client, make_user, caplog):
    """During a PostgreSQL restart the log said "'SessionStore' object has no attribute '_session_cache'": Django reads
    the session inside an ``except AttributeError``, and the database's error was told chained to it."""
    client.force_login(make_user("olive"))

    def restarting(execute, sql, params, many, context):
        if "django_session" in sql:
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR, logger="django.request"), connection.execute_wrapper(restarting):
        response = client.get(reverse("scores:home"))

    assert response.status_code == 500
    [record] = caplog.records
    logged = "".join(traceback.format_exception(*record.exc_info))
    assert "OperationalError: server closed the connection unexpectedly" in logged
    assert "AttributeError" not in logged and "During handling of the above exception" not in logged
    assert "sessionid" not in response.cookies  # The cookie is kept: once the database answers, the player is still signed in.
    assert client.get(reverse("scores:home")).context["user"].username == "olive"


def test_each_page_says_which_account_it_was_made_for_and_a_session_ended_elsewhere_says_nobody(client, make_user):
    """The service worker keeps game pages for offline and shows one only to the account it was kept for: the key
    stays one account's on every page, differs between accounts, and names nobody once the session has ended."""
    olive, bea = make_user("olive"), make_user("bea")
    assert client.get(reverse("scores:home"))[offline_pages.HEADER] == "anonymous"
    client.force_login(olive)
    key = client.get(reverse("scores:home"))[offline_pages.HEADER]
    assert key == client.get(reverse("scores:rules"))[offline_pages.HEADER] == offline_pages.account_key(olive)
    assert key not in ("anonymous", str(olive.pk), "olive") and key != offline_pages.account_key(bea)

    olive.set_password("another-long-password")  # Changed on another phone: this session ends.
    olive.save()
    assert client.get(reverse("scores:home"))[offline_pages.HEADER] == "anonymous"
