"""Building history documents for the history tests (shared/spec/history-format.md)."""

from __future__ import annotations

import json

SEATS = ["Ann", "Bob", "Cat", "Dan"]
# The spec's Hand example: dealer Ann, Ann steals the bid at 3 and is set back.
SPEC_HAND = {
    "dealer": "Ann",
    "bids": [["Bob", 2], ["Cat", None], ["Dan", 3], ["Ann", 3]],
    "pitcher": "Ann",
    "bid": 3,
    "high": "Ann",
    "low": "Bob",
    "jack": None,
    "game": "Dan",
}


def hand(pitcher: str, bid: int, high: str, low: str | None = None, jack: str | None = None, game: str | None = None, **extra) -> dict:
    return {"pitcher": pitcher, "bid": bid, "high": high, "low": low or high, "jack": jack, "game": game, **extra}


def game(game_id: str = "2026-11-27-kitchen", seats: list | None = None, hands: list | None = None, **extra) -> dict:
    return {"id": game_id, "played_on": "2026-11-27", "seats": list(seats or SEATS), "hands": list(hands or []), **extra}


def document(*games: dict, **extra) -> dict:
    return {"format": "pitch-history", "version": 1, "games": list(games), **extra}


def dumps(doc: object) -> bytes:
    return json.dumps(doc).encode()


def without_export_fields(doc: dict) -> dict:
    """A document minus what differs between two exports of the same games."""
    return {key: value for key, value in doc.items() if key not in ("exported_at", "league")}
