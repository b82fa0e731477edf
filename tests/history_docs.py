"""Building history documents for the history tests (docs/history-format.md)."""

from __future__ import annotations

import json

SEATS = ["Ann", "Bob", "Cat", "Dan"]
# A hand with every input field: dealer Ann, Ann steals the bid at 3 and is set back.
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


def v2_hand(v1: dict) -> dict:
    """A version 1 hand as version 2 writes it: its four point keys in one ``points`` object, where they stood."""
    before = {key: value for key, value in v1.items() if key in ("dealer", "bids", "pitcher", "bid")}
    after = {key: value for key, value in v1.items() if key not in (*before, *V1_POINTS)}
    return {**before, "points": {key: v1[key] for key in V1_POINTS}, **after}


def v2_game(v1: dict) -> dict:
    """A version 1 game (as exported) as version 2 writes it: every rules key (the 4-point game's variant, points and
    negative among them, teams last), each hand's points in one object; everything else as it was."""
    rules = {**V2_RULES, **{key: value for key, value in v1.get("rules", {}).items() if key != "teams"}}
    if "teams" in v1.get("rules", {}):
        rules["teams"] = v1["rules"]["teams"]
    return {**v1, "rules": rules, "hands": [v2_hand(hand) for hand in v1["hands"]]}


V1_POINTS = ("high", "low", "jack", "game")
# What an export writes for a 4-point game's rules: every key, defaults included.
V2_RULES = {
    "variant": "4-point", "points": list(V1_POINTS), "target": 7, "going_out": "pitcher", "min_bid": 1, "steal": True,
    "smudge": False, "negative": True,
}  # fmt: skip


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


def game_text(game: dict) -> str:
    """A game as the export lays it out, written the plain way: a line per field and per hand, every value json.dumps'ed."""
    fields = []
    for key, value in game.items():
        if key == "hands" and value:
            hands = ",\n".join(f"        {json.dumps(hand, ensure_ascii=False)}" for hand in value)
            fields.append(f'      "hands": [\n{hands}\n      ]')
        else:
            fields.append(f"      {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "    {\n" + ",\n".join(fields) + "\n    }"


def export_text(games: list[dict], *, league_name: str, exported_at: str) -> str:
    """A whole export (docs/history-format.md) written the plain way, as the app's export must write it, byte for byte."""
    head = {"format": "pitch-history", "version": 2, "exported_at": exported_at, "league": {"name": league_name}}
    fields = [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in head.items()]
    body = "\n" + ",\n".join(game_text(game) for game in games) + "\n  ]" if games else "]"
    return "{\n" + ",\n".join(fields) + ',\n  "games": [' + body + "\n}\n"
