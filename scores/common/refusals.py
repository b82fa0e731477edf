"""What the services refuse with: a write refused with nothing changed."""

from __future__ import annotations


class Refused(Exception):
    """A write refused with nothing changed, with the message to show (the game changed since the page was
    shown, a league would lose its last owner, an invite no longer joins...)."""


class Gone(Refused):
    """A write refused because what it writes to was deleted by another request meanwhile (a game deleted, a player
    merged into another, a claim answered): nothing changed, and the page the write came from shows nothing any more.
    Found under the row's lock, where the request that deleted it had to finish first."""
