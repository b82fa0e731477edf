"""Writes to accounts: a new account from the sign-up page."""

from __future__ import annotations

from django.contrib.auth.models import User


def create_account(*, username: str, email: str, password: str) -> User:
    """A new account, its password stored hashed (as Django's sign-up form stores it)."""
    user = User(username=username, email=email)
    user.set_password(password)
    user.save()
    return user
