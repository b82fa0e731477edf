"""The database pool after a PostgreSQL restart, and the health check when the database is down."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)
postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="the connection pool is PostgreSQL's")


def _terminate_other_backends() -> int:
    """What a database restart does to the pool: end every other connection to the test database, from outside."""
    params = connection.get_connection_params()
    params.pop("pool", None)
    with psycopg.connect(**params, autocommit=True) as outside:
        rows = outside.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


@postgresql_only
def test_requests_after_the_pools_connections_were_killed_all_succeed():
    connection.close()
    # A pool of its own: earlier tests' threads may still hold connections of the shared one, which would never fill.
    connection.close_pool()
    connection.ensure_connection()
    connection.close()  # Back to the pool, which keeps its idle connections open.
    connection.pool.wait()
    assert connection.pool.get_stats()["pool_available"] >= 2
    assert _terminate_other_backends() >= 2
    statuses = []
    for _ in range(6):
        statuses.append(Client().get("/healthz").status_code)
        connection.close()  # As at the end of a real request: the connection goes back to the pool.
    assert statuses == [200] * 6


@pytest.fixture
def database_down():
    """The database cannot be reached: new connections go to a closed port (PostgreSQL) or a missing folder (SQLite)."""
    saved = {key: connection.settings_dict[key] for key in ("NAME", "PORT", "OPTIONS")}
    connection.close()
    if connection.vendor == "postgresql":
        pool = saved["OPTIONS"]["pool"]
        connection.close_pool()
        connection.settings_dict["PORT"] = "1"
        connection.settings_dict["OPTIONS"] = {"pool": {**(pool if isinstance(pool, dict) else {}), "timeout": 1}}
    else:
        connection.settings_dict["NAME"] = "/nonexistent/folder/db.sqlite3"
    yield
    connection.close()
    if connection.vendor == "postgresql":
        connection.close_pool()
    connection.settings_dict.update(saved)


def test_the_health_check_answers_503_briefly_when_the_database_is_down(database_down):
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unavailable"}
    assert len(response.content) < 100
    assert "no-cache" in response["Cache-Control"]
