"""Database sessions that take a cookie's session key only if it could be one of ours.

Django's own check is only "at least 8 characters": a key with a NUL byte reached
the query, and PostgreSQL refuses NUL in text with an error, a 500 for anyone who
sent such a cookie. A key Django made is 32 lower-case letters and digits.
"""

from __future__ import annotations

from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.backends.db import SessionStore as DBStore


class SessionStore(DBStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return bool(super()._validate_session_key(key)) and len(key) <= 40 and set(key) <= set(VALID_KEY_CHARS)
