"""A document's games as CSV rows: the headers of the games, hands, scores and standings files, and each cell made
safe for a spreadsheet (a text that starts like a formula is quoted). Pure Python."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ...engine import rules
from .format import RULES_VALUES

GAMES_HEADER = ("game_id", "played_on", *RULES_VALUES, "partnership", "winner")
SEASON_HEADER = ("season", "season_starts_on")  # After GAMES_HEADER, when the export is asked for the seasons.


SCORES_HEADER = ("game_id", "hand", "side", "won", "delta", "total")


def point_keys(point_sets: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """The point keys any of these games' points use, in the catalogue's order: the point columns of a CSV file."""
    used = {key for points in point_sets for key in points}
    return tuple(key for key in rules.CATALOGUE if key in used)


def hands_header(keys: Sequence[str]) -> tuple[str, ...]:
    """hands.csv's columns: a column per point key (``point_keys``) between the bid and ``set``."""
    return ("game_id", "played_on", "hand", "dealer", "pitcher", "bid", *keys, "set")


def standings_header(keys: Sequence[str]) -> tuple[str, ...]:
    """standings.csv's columns: the count of each kind of point (``point_keys``) after the sets."""
    return (
        "player", "games", "wins", "win_percent", "points", "hands", "points_per_hand", "hands_pitched", "bids_made",
        "made_percent", "sets", *keys, "streak", "rating",
    )  # fmt: skip


# What a spreadsheet may take for the start of a formula; some read the full-width = + - @ as the ASCII ones.
FORMULA_STARTS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")


def cell(value: object) -> object:
    """A spreadsheet cell; a name starting like a formula is kept as text so no spreadsheet runs it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return "'" + value
    return value


def hand_rows(game: Mapping[str, Any], keys: Sequence[str]) -> Iterator[tuple[object, ...]]:
    """hands.csv: one row per hand, with a cell per point key (``hands_header``): the side that won it, empty where it
    was missing or is not one of the game's points."""
    for number, hand in enumerate(game["hands"], start=1):
        points = hand["points"]
        yield (
            game["id"], game["played_on"], number, hand["dealer"], hand["pitcher"], hand["bid"],
            *(points.get(key) for key in keys), hand["set"],
        )  # fmt: skip


def score_rows(game: Mapping[str, Any]) -> Iterator[tuple[object, ...]]:
    """scores.csv: one row per side per hand."""
    for number, hand in enumerate(game["hands"], start=1):
        for side, won in hand["won"].items():
            yield (game["id"], number, side, won, hand["delta"][side], hand["totals"][side])
