"""Writes that span models, one module an area; views, commands and imports all go through them.

- ``games``: start a game, record, edit, undo, restore and delete hands, its watch link.
- ``leagues``: create and delete leagues, members and roles, invites, players' names.
- ``ratings``: the league's ratings and streaks.
- ``imports``: a history file into a league, all or nothing.

The names below are the services' public API, so callers write ``services.record_hand(...)``. Reads are in
``scores.selectors``.
"""

from __future__ import annotations

from .errors import Refused
from .games import (
    HandAlreadyRecorded,
    KeyUsedForAnotherHand,
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
from .ratings import update_ratings

__all__ = [
    "HandAlreadyRecorded",
    "ImportReport",
    "KeyUsedForAnotherHand",
    "Refused",
    "accept_invite",
    "change_role",
    "create_league",
    "delete_hand",
    "delete_league",
    "edit_hand",
    "import_history",
    "record_hand",
    "remove_member",
    "rename_player",
    "restore_hand",
    "set_watch_link",
    "start_game",
    "undo_hand",
    "update_ratings",
]
