"""Reads, one module an area: what the pages show, worked out from the stored rows; nothing here writes.

- ``games``: a game in the rules engine's terms (``load_game``, ``GameState``) and its scoreboard.
- ``scorer``: what the game page gives the phone's own scorer.
- ``standings``: a league's standings.
- ``leagues``: a league's games a page at a time, its ratings chart, what an invite link allows.
- ``players``: a player's page.
- ``seasons``: a league's seasons and which is current.
- ``nights``: a card night's page and its live version.
- ``people``: a league's players, claims, and what a merge would do.

The names below are the reads' public API, so callers write ``selectors.load_game(...)``.
"""

from __future__ import annotations

from .games import (
    GameState,
    load_game,
    result_line,
    score_chart,
    score_chart_steps,
    scoreboard,
    scoreboard_context,
    with_points,
    with_side_scores,
)
from .leagues import games_page, invite_refusal, ratings_chart
from .nights import night_context, night_games, night_version
from .people import merge_preview, merge_refusal, people_context
from .players import player_context
from .scorer import browser_table, scorer_state
from .seasons import current_season, seasons
from .standings import standings, standings_columns, variants_played

__all__ = [
    "GameState",
    "browser_table",
    "current_season",
    "games_page",
    "invite_refusal",
    "load_game",
    "merge_preview",
    "merge_refusal",
    "night_context",
    "night_games",
    "night_version",
    "people_context",
    "player_context",
    "ratings_chart",
    "result_line",
    "score_chart",
    "score_chart_steps",
    "scoreboard",
    "scoreboard_context",
    "scorer_state",
    "seasons",
    "standings",
    "standings_columns",
    "variants_played",
    "with_points",
    "with_side_scores",
]
