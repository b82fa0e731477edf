"""The parts of a game page repeated per hand and per side, written in Python.

A game page shows every hand, and each save sends the scoreboard and the new
hand's row: as template tags these few lines took most of their rendering (a
tag per word). Written here, names and words are escaped with the standard
library's ``html.escape`` (what Django's ``escape`` calls, without its check for
lazy strings on every call) and numbers, which need none, are not.
"""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

register = template.Library()


@register.simple_tag
def hand_points(hand) -> SafeString:
    """Who won each point: "High: Ann · Low: Bob · Jack: not in play · Game: tied"."""
    jack = hand.jack.name if hand.jack_id else pgettext("card game point", "not in play")
    game = hand.game_point.name if hand.game_point_id else pgettext("card game point", "tied")
    points = (
        (pgettext("card game point", "High"), hand.high.name),
        (pgettext("card game point", "Low"), hand.low.name),
        (pgettext("card game point", "Jack"), jack),
        (pgettext("card game point", "Game"), game),
    )
    return mark_safe(" · ".join(f"{escape(point)}: {escape(side)}" for point, side in points))


@register.simple_tag
def score_cells(hand) -> SafeString:
    """A cell per side: the hand's change over the new total (negative totals marked)."""
    return mark_safe(
        "".join(
            f'<td class="text-end"><span class="small">{score.delta:+d}</span><br>'
            f'<strong class="{"negative" if score.total < 0 else ""}">{score.total:d}</strong></td>'
            for score in hand.side_scores
        )
    )


@register.simple_tag
def score_rows(rows: list[dict], partnership: bool) -> SafeString:
    """The scoreboard's rows: each side's name (its players in partnership play) and total, the leaders marked."""
    leads = escape(gettext("leads"))  # Outside the f-string below: xgettext does not look inside f-strings.
    leads = f' <span class="badge bg-success align-middle">{leads}</span>'
    html = []
    for row in rows:
        name = escape(row["side"].name) + (leads if row["leading"] else "")
        if partnership:
            name += f'<br><small class="text-muted">{escape(" & ".join(row["members"]))}</small>'
        html.append(
            f'<tr class="{"leader" if row["leading"] else ""}"><th scope="row" class="side-name">{name}</th>'
            f'<td class="total text-end {"negative" if row["total"] < 0 else ""}">{row["total"]:d}</td></tr>'
        )
    return mark_safe("".join(html))
