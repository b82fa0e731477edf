"""The standings' columns in words: each one's heading and what it counts, for the table's header and for the
columns a sort the page does not know is told to pick from (``templatetags.columns``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from ..engine.problems import point_name

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# Each column's heading and title by its key (``selectors.standings.COLUMNS``); a kind of point's column is named
# by the point (``rules.CATALOGUE``).
HEADINGS: dict[str, tuple[StrOrPromise, StrOrPromise]] = {
    "name": (_("Player"), _("Player")),
    "games": (_("GP"), _("Games played")),
    "wins": (_("W"), _("Wins")),
    "points": (_("Pts"), _("Points: the sum of every score change")),
    "points_per_hand": (_("Pts/hand"), _("Average points per hand played")),
    "win_percent": (_("Win %"), _("Games won, per cent")),
    "pitched": (_("Pitched"), _("Hands pitched")),
    "made_percent": (_("Made %"), _("Bids made, per cent of hands pitched")),
    "set": (pgettext_lazy("set back", "Set"), _("Times set")),
    "streak": (_("Streak"), _("Current streak of wins (W) or losses (L)")),
    "rating": (_("Rating"), _("OpenSkill rating (mu - 3 sigma)")),
}


def column_label(key: str) -> str:
    """A column's heading, in the page's language."""
    return str(HEADINGS[key][0]) if key in HEADINGS else point_name(key)


def column_title(key: str) -> str:
    """What a column counts, in the page's language."""
    if key in HEADINGS:
        return str(HEADINGS[key][1])
    return gettext("Hands where their side won %(point)s") % {"point": point_name(key)}
