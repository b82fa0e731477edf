"""A stored game's plain rows (``StoredGame``) written as the document's JSON (version 2, which holds every variant
of the Pitch family): as a value (``game_document``) and as text written by hand (``game_json``, byte for byte the
same as ``json.dumps`` of the value, indented), and the document around the games' texts. Pure Python."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import json
from collections.abc import Iterable, Iterator
from typing import Any

from ...engine import rules
from .format import FORMAT, HANDS, PAPER, VERSION, SeasonInput

JSON_BOOL = {True: "true", False: "false"}


# A hand's stored row: (game pk, dealer seat pk, pitcher seat pk, bid, auction, points, set).
HandRow = tuple[int, int, int, int, "list[list[Any]] | None", "dict[str, int | None]", bool]


@dataclasses.dataclass(frozen=True)
class StoredGame:
    """A game as the services stored it, read for export as plain values: ids, not model instances.

    ``hands`` are ``HandRow`` tuples (``scores.history.export.HAND_COLUMNS``) by number: the game's pk first, the
    seats as ids, the auction as a list of [seat position, bid or None] (None when none was entered), the points
    as {point key: the winning side's position or None} and ``set`` a bool. ``scores`` is every stored
    ``HandScore`` figure of the game in one flat list: hand by hand, and within a hand each side's won, delta and
    total, the sides in primary-key order (``slots`` says where each side's are).
    """

    code: str
    played_on: datetime.date
    rules: rules.Rules
    partnership: bool
    winner_id: int | None
    sides: list[tuple[int, str]]  # (pk, name), by position.
    seats: list[tuple[int, int, int, str]]  # (pk, position, side pk, player's name), by position.
    hands: list[HandRow]
    scores: list[int]
    season: SeasonInput | None = None  # Written only when the export is asked for the seasons.
    # A game recorded from paper: its final scores by side name (None: played on a phone), and its hands if known.
    paper_totals: dict[str, int] | None = None
    paper_hands: int | None = None

    @functools.cached_property
    def slots(self) -> dict[int, int]:
        """Where each side's won, delta and total start among a hand's scores, by side pk."""
        return {pk: 3 * rank for rank, pk in enumerate(sorted(pk for pk, _ in self.sides))}

    def totals(self) -> dict[str, int]:
        """Each side's score after the last hand (0 before the first; a game from paper's final scores), by side name in
        seating order."""
        if self.paper_totals is not None:
            return {name: self.paper_totals[name] for _, name in self.sides}
        if not self.hands:
            return {name: 0 for _, name in self.sides}
        last, slot = self.scores[-3 * len(self.sides) :], self.slots
        return {name: last[slot[pk] + 2] for pk, name in self.sides}


def game_document(game: StoredGame, *, hands: bool = True) -> dict[str, object]:
    """The game's document; with ``hands=False``, without its hands (the result is still given)."""
    side_name = dict(game.sides)
    side_at: dict[int | None, str | None] = {position: name for position, (_, name) in enumerate(game.sides)}
    side_at[None] = None
    seat_name = {pk: name for pk, _, _, name in game.seats}
    name_at = {position: name for _, position, _, name in game.seats}
    rules_ = game.rules.as_dict()  # Every key, defaults included: the file says what it was scored by.
    if game.partnership:
        rules_["teams"] = [{"name": name, "players": [n for _, _, side, n in game.seats if side == pk]} for pk, name in game.sides]
    slot, width = game.slots, 3 * len(game.sides)
    written = []
    for number, (_game_id, dealer_id, pitcher_id, bid, auction, points, set_) in enumerate(game.hands if hands else ()):
        score = game.scores[number * width : (number + 1) * width]
        entry: dict[str, object] = {"dealer": seat_name[dealer_id]}
        if auction is not None:
            entry["bids"] = [[name_at[position], bid] for position, bid in auction]
        entry.update(
            pitcher=seat_name[pitcher_id],
            bid=bid,
            points={key: side_at[points[key]] for key in game.rules.points},
            won={name: score[slot[pk]] for pk, name in game.sides},
            delta={name: score[slot[pk] + 1] for pk, name in game.sides},
            totals={name: score[slot[pk] + 2] for pk, name in game.sides},
        )
        entry["set"] = set_
        written.append(entry)
    document: dict[str, object] = {"id": game.code, "played_on": game.played_on.isoformat()}
    if game.season is not None:
        document["season"] = {"name": game.season.name, "starts_on": game.season.starts_on.isoformat()}
    document |= {"rules": rules_, "seats": [name for _, _, _, name in game.seats], "hands": written}
    if game.paper_totals is not None:
        document[PAPER] = {"totals": game.totals(), **({HANDS: game.paper_hands} if game.paper_hands is not None else {})}
    return document | {
        "result": {"winner": side_name.get(game.winner_id) if game.winner_id is not None else None, "totals": game.totals()},
    }


def game_json(game: StoredGame) -> str:
    """``_game_text(game_document(game))``, byte for byte, written from the game's rows without a dict per hand.

    An export has hundreds of thousands of hands, and its budget (BENCHMARKS.md) leaves no room for a dict and a
    json.dumps per hand. Here the names are quoted once per game into a template of a hand's line; the values of
    all the hands are laid out column by column in the template's order (slice assignments, no Python
    loop per hand) and the game's hands are written with one ``%``.
    """
    side_at: dict[int | None, str] = {position: _dump(name) for position, (_, name) in enumerate(game.sides)}
    side_at[None] = "null"
    seat = {pk: _dump(name) for pk, _, _, name in game.seats}
    document = game_document(game, hands=False)
    if not game.hands:
        return _game_text(document)
    keys = [_dump(name).replace("%", "%%") for _, name in game.sides]
    scores = ", ".join(f'"{field}": {{' + ", ".join(f"{key}: %s" for key in keys) + "}" for field in ("won", "delta", "totals"))
    points = ", ".join(f'"{key}": %s' for key in game.rules.points)
    line = f'        {{"dealer": %s%s, "pitcher": %s, "bid": %s, "points": {{{points}}}, {scores}, "set": %s}}'
    _games, dealer, pitcher, bid, auction, won, set_ = zip(*game.hands, strict=True)
    bids = [""] * len(auction)
    if auction.count(None) < len(auction):
        at = {position: seat[pk] for pk, position, _, _ in game.seats}
        bids = [
            "" if a is None else ', "bids": [' + ", ".join(f"[{at[p]}, {'null' if b is None else b}]" for p, b in a) + "]" for a in auction
        ]
    columns: list[Iterable[object]] = [map(seat.__getitem__, dealer), bids, map(seat.__getitem__, pitcher), bid]
    columns += [[side_at[hand[key]] for hand in won] for key in game.rules.points]
    # A hand's scores are each side's won, delta and total, sides in pk order: the template wants all the won first.
    slot, width = game.slots, 3 * len(game.sides)
    columns += [game.scores[slot[pk] + figure :: width] for figure in range(3) for pk, _ in game.sides]
    columns.append(map(JSON_BOOL.__getitem__, set_))
    values: list[object] = [None] * (len(columns) * len(game.hands))
    for i, column in enumerate(columns):
        values[i :: len(columns)] = column
    return _game_text(document, [",\n".join([line] * len(game.hands)) % tuple(values)])


# ``json.dumps(value, ensure_ascii=False)``: json.dumps makes a new encoder for each call with an option.
_dump = json.JSONEncoder(ensure_ascii=False).encode


def _game_text(game: dict[str, object], hand_lines: list[str] | None = None) -> str:
    """A game as readable JSON: a line per field and a line per hand (``hand_lines``, if already written)."""
    lines = []
    for key, value in game.items():
        if key == "hands" and (value or hand_lines):
            assert isinstance(value, list)
            inner = ",\n".join(hand_lines if hand_lines is not None else (f"        {_dump(hand)}" for hand in value))
            lines.append(f'      "hands": [\n{inner}\n      ]')
        else:
            lines.append(f"      {_dump(key)}: {_dump(value)}")
    return "    {\n" + ",\n".join(lines) + "\n    }"


def json_document(games: Iterable[str], *, league_name: str, exported_at: datetime.datetime) -> Iterator[str]:
    """The document around these games' JSON texts (``game_json``), as chunks of text, a game at a time."""
    exported_at = exported_at.astimezone(datetime.UTC).replace(microsecond=0)
    yield (
        "{\n"
        f'  "format": {_dump(FORMAT)},\n'
        f'  "version": {VERSION},\n'
        f'  "exported_at": {_dump(exported_at.strftime("%Y-%m-%dT%H:%M:%SZ"))},\n'
        f'  "league": {_dump({"name": league_name})},\n'
        '  "games": ['
    )
    separator = "\n"
    for game in games:
        yield separator + game
        separator = ",\n"
    yield ("\n  ]" if separator != "\n" else "]") + "\n}\n"
