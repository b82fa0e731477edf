"""The standings' reads: a league's standings (``standings``), its seasons and which is current (``seasons``), a
player's page and the league's ratings chart (``players``). Callers write ``selectors.standings(...)``."""

from __future__ import annotations

from .players import player_context, ratings_chart
from .seasons import current_season, seasons
from .standings import standings, standings_columns, standings_table, variants_played

__all__ = [
    "current_season",
    "player_context",
    "ratings_chart",
    "seasons",
    "standings",
    "standings_columns",
    "standings_table",
    "variants_played",
]
