"""Production readiness: the deploy checks, the health endpoint, security headers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_with_the_production_environment():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},  # only the browser tests need it
        "DEBUG": "false",
        "SECRET_KEY": "x7-" + "k9Q2mZ4vB8nL1pR6tY3wE5uI0oA" * 2,
        "ALLOWED_HOSTS": "pitch.example.com",
        "DATABASE_URL": "sqlite:////tmp/pitch-deploy-check.sqlite3",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": ""}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.django_db
def test_health_endpoint_answers_ok_when_the_database_does(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_pages_carry_a_nonce_csp_and_frame_and_referrer_headers(client):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    nonce = csp.split("'nonce-")[1].split("'")[0]
    assert f'nonce="{nonce}"' in response.content.decode()  # htmx's script tag carries it
