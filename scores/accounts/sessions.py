"""Database sessions that take a cookie's session key only if it could be one of ours.

Django's own check is only "at least 8 characters": a key with a NUL byte reached
the query, and PostgreSQL refuses NUL in text with an error, a 500 for anyone who
sent such a cookie. A key Django made is 32 lower-case letters and digits.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.db import DatabaseError


class SessionStore(DBStore):
    def _validate_session_key(self, key: str | None) -> bool:
        # The stubs leave out SessionBase._validate_session_key, which is Django's (it refuses None, and under 8 characters).
        valid = bool(super()._validate_session_key(key))  # type: ignore[misc]
        return valid and key is not None and len(key) <= 40 and set(key) <= set(VALID_KEY_CHARS)

    def load(self) -> dict[str, Any]:
        try:
            return super().load()
        except DatabaseError as error:
            # Django loads the session inside an ``except AttributeError`` (its cache not made yet): a database that
            # cannot answer (a restart) was logged as "'SessionStore' object has no attribute '_session_cache'"
            # followed by the real error. The database's error alone says what happened.
            raise error from None
