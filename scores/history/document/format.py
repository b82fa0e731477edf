"""The history format's constants and values: its name and versions, the keys of a document, a game and a season,
the longest names and ids, the version 1 and 2 differences (``Version``), and what a reader gives (``GameInput``,
``SeasonInput``) or refuses with (``Problem``, ``HistoryError``). Pure Python (docs/history-format.md)."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import json
import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ...engine import rules
from ...engine.names import MAX_ID_LENGTH as MAX_ID_LENGTH
from ...engine.names import MAX_LENGTH
from ...engine.problems import located

FORMAT = "pitch-history"


VERSION = 2  # What an export writes.


VERSIONS = (1, 2)  # What an import reads.


MAX_NAME_LENGTH = MAX_LENGTH


MAX_SEASON_NAME_LENGTH = 60  # A season's name's longest (Season.name).


# How deep a file's objects and lists may nest: twice the format's deepest (a team's players, a hand's bids), so a
# value nested a little deeper is refused for what it is, while nothing deeper reaches the checks, which recurse.
MAX_DEPTH = 16


DOCUMENT_KEYS = ("format", "version", "exported_at", "league", "games")


LEAGUE_KEYS = ("name",)


GAME_KEYS = ("id", "played_on", "rules", "seats", "hands", "result")


SEASON_KEYS = ("name", "starts_on")


RULES_VALUES = tuple(rules.Rules().as_dict())  # The keys of ``rules.Rules``, in the order they are written.


HANDS = "hands"  # The rules key of a game of a number of hands (``rules.Rules.hands``), written only for such a game.


PAPER = "paper"  # The game key of a game recorded from paper: its final scores, and the number of hands if known.
PAPER_KEYS = ("totals", "hands")


TEAM_KEYS = ("name", "players")


V1_POINTS = rules.VARIANTS[rules.DEFAULT_VARIANT].points  # A version 1 hand's point keys: high, low, jack, game.


@dataclasses.dataclass(frozen=True)
class Version:
    """What one version of the format allows in a game's ``rules`` and in a hand."""

    number: int
    game_keys: tuple[str, ...]
    rules_keys: tuple[str, ...]
    hand_keys: tuple[str, ...]
    hand_required: tuple[str, ...]

    @functools.cached_property
    def hand_key_set(self) -> frozenset[str]:
        return frozenset(self.hand_keys)

    @functools.cached_property
    def hand_required_set(self) -> frozenset[str]:
        return frozenset(self.hand_required)


DERIVED = ("won", "delta", "totals", "set")
V1 = Version(
    1,
    game_keys=GAME_KEYS,
    rules_keys=("target", "teams", "going_out", "min_bid", "steal", "smudge"),
    hand_keys=("dealer", "bids", "pitcher", "bid", *V1_POINTS, *DERIVED),
    hand_required=("pitcher", "bid", *V1_POINTS),
)
V2 = Version(
    2,
    # The season and a result from paper, optional: this app's own keys, read when given.
    game_keys=(*GAME_KEYS[:2], "season", *GAME_KEYS[2:5], PAPER, *GAME_KEYS[5:]),
    rules_keys=("variant", "points", "target", "teams", "going_out", "min_bid", "steal", "smudge", "negative", HANDS),
    hand_keys=("dealer", "bids", "pitcher", "bid", "points", *DERIVED),
    hand_required=("pitcher", "bid", "points"),
)
BY_NUMBER = {version.number: version for version in (V1, V2)}


# Version 1's own limits, narrower than the engine's (which scores every variant).
V1_MAX_TARGET = 99
V1_MIN_BIDS = (1, 2)


# What a message may call a part of a document; translated only when a message says it (a file has thousands).
A_GAME, A_HAND, A_PLAYERS_NAME, A_TEAM, THE_LEAGUE, A_GAMES_RULES, A_SEASON, A_SEASONS_NAME, A_PAPER_RESULT = (
    gettext_lazy("a game"),
    gettext_lazy("a hand"),
    gettext_lazy("a player's name"),
    gettext_lazy("a team"),
    gettext_lazy("the league"),
    gettext_lazy('a game\'s "rules"'),
    gettext_lazy("a game's season"),
    gettext_lazy("a season's name"),
    gettext_lazy("a result from paper"),
)


# What a key of the other version is told (translated only when a message says it).
OF_VERSION_2 = gettext_lazy("a key of version 2, and this document is version 1")
IN_POINTS = gettext_lazy('version 2 gives a hand\'s points in "points"')


REQUIRED_HINTS: dict[str, Callable[[], str]] = {
    "jack": lambda: _(" (null when the Jack was not in play)"),
    "game": lambda: _(" (null when game was tied)"),
}


DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


# Where a lone surrogate could be: a JSON escape of one (JSON writes \u in lower case only), or one in a str.
MAY_HOLD_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


MAY_HOLD_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


MAY_HOLD_SURROGATE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")


@dataclasses.dataclass(frozen=True)
class Problem(rules.Problem):
    """A problem in a document, with the game it is in: ``game "kitchen", hand 3, bid: bid must be 1-4, got 5``.

    ``game`` is the game's id, or its position in ``games`` (from 1) when it has no usable id.
    """

    game: str | int | None = None

    def __str__(self) -> str:
        within = []
        if isinstance(self.game, str):
            within.append(_("game %(id)s") % {"id": json.dumps(self.game, ensure_ascii=False)})
        elif self.game is not None:
            within.append(_("game %(number)s") % {"number": self.game})
        return located(self, within=within)


class HistoryError(rules.RulesError):
    """A document that cannot be imported; ``problems`` lists every reason, with where it is."""


@dataclasses.dataclass(frozen=True)
class SeasonInput:
    """A game's season as a file names it: its name and first day."""

    name: str
    starts_on: datetime.date


@dataclasses.dataclass(frozen=True)
class GameInput:
    """One game of a valid document, in the rules engine's terms, with the engine's results for it."""

    id: str
    played_on: datetime.date | None
    table: rules.Table
    hands: tuple[rules.Hand, ...]
    result: rules.Replay  # Kept from the check, so the import stores it without scoring the game again.
    season: SeasonInput | None = None
    # Recorded from paper: no hands, ``result`` holds its final scores and winner; the number of hands if known.
    on_paper: bool = False
    paper_hands: int | None = None
