"""What the services refuse with: a write refused with nothing changed."""

from __future__ import annotations


class Refused(Exception):
    """A write refused with nothing changed, with the message to show (the game changed since the page was
    shown, a league would lose its last owner, an invite no longer joins...)."""
