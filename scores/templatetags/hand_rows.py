"""The parts of a game page repeated per hand and per side, written in Python.

A game page shows every hand, and each save sends the scoreboard and the new
hand's row: as template tags these few lines took most of their rendering (a
tag per word); written here they take a tenth of it.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

register = template.Library()


@register.simple_tag
def hand_points(hand) -> SafeString:
    """Who won each point: "High: Ann · Low: Bob · Jack: not in play · Game: tied"."""
    return format_html(
        "{}: {} · {}: {} · {}: {} · {}: {}",
        pgettext("card game point", "High"),
        hand.high.name,
        pgettext("card game point", "Low"),
        hand.low.name,
        pgettext("card game point", "Jack"),
        hand.jack.name if hand.jack_id else pgettext("card game point", "not in play"),
        pgettext("card game point", "Game"),
        hand.game_point.name if hand.game_point_id else pgettext("card game point", "tied"),
    )


@register.simple_tag
def score_cells(hand) -> SafeString:
    """A cell per side: the hand's change over the new total (negative totals marked)."""
    return format_html_join(
        "",
        '<td class="text-end"><span class="small">{}</span><br><strong class="{}">{}</strong></td>',
        ((f"{score.delta:+d}", "negative" if score.total < 0 else "", score.total) for score in hand.side_scores),
    )


@register.simple_tag
def score_rows(rows: list[dict], partnership: bool) -> SafeString:
    """The scoreboard's rows: each side's name (its players in partnership play) and total, the leaders marked."""
    leads = gettext("leads")
    return format_html_join(
        "",
        '<tr class="{}"><th scope="row" class="side-name">{}{}{}</th><td class="total text-end {}">{}</td></tr>',
        (
            (
                "leader" if row["leading"] else "",
                row["side"].name,
                format_html(' <span class="badge bg-success align-middle">{}</span>', leads) if row["leading"] else "",
                format_html('<br><small class="text-muted">{}</small>', " & ".join(row["members"])) if partnership else "",
                "negative" if row["total"] < 0 else "",
                row["total"],
            )
            for row in rows
        ),
    )
