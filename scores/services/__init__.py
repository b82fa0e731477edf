"""Writes that span models, one module an area; views, commands and imports all go through them.

- ``games``: start, change the rules of (before its first hand) and delete a game; record, edit, undo, restore and
  delete hands; its watch link.
- ``leagues``: create and delete leagues, members and roles, invites, players' names.
- ``ratings``: the league's ratings and streaks.
- ``totals``: the players' figures kept per season, for the standings.
- ``seasons``: start and rename a league's seasons.
- ``nights``: card nights, their rounds and tables.
- ``people``: guests, claims of a guest's games, renaming, archiving and merging players.
- ``imports``: a history file into a league, all or nothing.

The names below are the services' public API, so callers write ``services.record_hand(...)``. Reads are in
``scores.selectors``.
"""

from __future__ import annotations

from .errors import Gone, Refused
from .games import (
    GameDeleted,
    HandAlreadyRecorded,
    KeyUsedForAnotherHand,
    change_rules,
    delete_game,
    delete_hand,
    edit_hand,
    record_hand,
    restore_hand,
    set_watch_link,
    start_game,
    undo_hand,
)
from .imports import ImportReport, import_history
from .leagues import accept_invite, change_role, create_league, delete_league, remove_member, rename_player
from .nights import RoundNotNext, set_table_scorer, start_night, start_round
from .people import add_guest, claim_player, decide_claim, merge_players, rename, set_archived
from .ratings import update_ratings
from .seasons import rename_season, start_season

__all__ = [
    "GameDeleted",
    "Gone",
    "HandAlreadyRecorded",
    "ImportReport",
    "KeyUsedForAnotherHand",
    "Refused",
    "RoundNotNext",
    "accept_invite",
    "add_guest",
    "change_role",
    "change_rules",
    "claim_player",
    "create_league",
    "decide_claim",
    "delete_game",
    "delete_hand",
    "delete_league",
    "edit_hand",
    "import_history",
    "merge_players",
    "record_hand",
    "remove_member",
    "rename",
    "rename_player",
    "rename_season",
    "restore_hand",
    "set_archived",
    "set_table_scorer",
    "set_watch_link",
    "start_game",
    "start_night",
    "start_round",
    "start_season",
    "undo_hand",
    "update_ratings",
]
