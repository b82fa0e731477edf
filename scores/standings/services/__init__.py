"""The standings' writes: the ratings (``ratings``), the players' figures kept per season (``totals``), seasons
(``seasons``). Callers write ``services.update_ratings(...)``."""

from __future__ import annotations

from .ratings import update_ratings
from .seasons import rename_season, start_season

__all__ = ["rename_season", "start_season", "update_ratings"]
