"""Reads, one module an area: what the pages show, worked out from the stored rows; nothing here writes.

- ``games``: a game in the rules engine's terms (``load_game``, ``GameState``) and its scoreboard.
- ``scorer``: what the game page gives the phone's own scorer.
- ``standings``: a league's standings.
- ``leagues``: a league's games a page at a time, its ratings chart, what an invite link allows.
- ``players``: a player's page.

The names below are the reads' public API, so callers write ``selectors.load_game(...)``.
"""

from __future__ import annotations

from .games import GameState, load_game, result_line, scoreboard, scoreboard_context, with_points, with_side_scores
from .leagues import games_page, invite_refusal, ratings_chart
from .players import player_context
from .scorer import browser_table, scorer_state
from .standings import standings, standings_columns, variants_played

__all__ = [
    "GameState",
    "browser_table",
    "games_page",
    "invite_refusal",
    "load_game",
    "player_context",
    "ratings_chart",
    "result_line",
    "scoreboard",
    "scoreboard_context",
    "scorer_state",
    "standings",
    "standings_columns",
    "variants_played",
    "with_points",
    "with_side_scores",
]
