"""The parts of a game page repeated per hand and per side, written in Python.

A game page shows every hand, and each save sends the scoreboard and the new
hand's row: as template markup these rows took most of their rendering (a tag
or two per word; a saved hand's answer is measured against a budget, see
BENCHMARKS.md). Written here, names and words are escaped with the standard
library's ``html.escape`` (what Django's ``escape`` calls, without its check for
lazy strings on every call) and numbers, which need none, are not.
"""

from __future__ import annotations

from html import escape

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

register = template.Library()


@register.simple_tag(takes_context=True)
def hand_row(context, hand) -> SafeString:
    """A hand's row in the history: who pitched what (and if they were set), who dealt, who won each point, a link
    to edit it for those who may score, and each side's change and total. Needs ``league`` and ``game``."""
    # The words are looked up outside the f-strings: xgettext does not read inside them.
    short = context.get("short_names") or {}
    pitched = gettext("%(pitcher)s bid %(bid)s") % {"pitcher": _name(hand.pitcher.player.name, short), "bid": hand.bid}
    if hand.set:
        set_back = escape(pgettext("set back", "set"))
        pitched += f' <span class="badge bg-danger">{set_back}</span>'
    dealt = gettext("dealt by %(dealer)s") % {"dealer": _name(hand.dealer.player.name, short)}
    edit = ""
    if context.get("can_score"):
        url = reverse("scores:hand_edit", args=[context["league"].slug, context["game"].pk, hand.number])
        label, which = escape(gettext("Edit")), escape(gettext("hand %(number)s") % {"number": hand.number})
        edit = f'\n    <a class="small tap-link" href="{escape(url)}">{label}<span class="visually-hidden"> {which}</span></a>'
    return mark_safe(
        f"<tr>\n  <td>{hand.number}</td>\n  <td>\n    {pitched}\n"
        f'    <div class="small text-muted">{dealt}</div>\n    <div class="small points">{_points(hand, short)}</div>{edit}\n  </td>\n'
        f"  {_score_cells(hand)}\n</tr>"
    )


def _points(hand, short: dict[str, str]) -> str:
    """Who won each point: "High: Ann · Low: Bob · Jack: not in play · Game: tied"."""
    jack = _name(hand.jack.name, short) if hand.jack_id else escape(pgettext("card game point", "not in play"))
    game = _name(hand.game_point.name, short) if hand.game_point_id else escape(pgettext("card game point", "tied"))
    points = (
        (pgettext("card game point", "High"), _name(hand.high.name, short)),
        (pgettext("card game point", "Low"), _name(hand.low.name, short)),
        (pgettext("card game point", "Jack"), jack),
        (pgettext("card game point", "Game"), game),
    )
    return " · ".join(f"{escape(point)}: {side}" for point, side in points)


def _name(full: str, short: dict[str, str]) -> str:
    """A player's name in the history: its short form (``names.short_forms``) on the screen, the whole name in the
    title and for screen readers."""
    shown = short.get(full, full)
    if shown == full:
        return escape(full)
    full = escape(full)
    return f'<span title="{full}" aria-hidden="true">{escape(shown)}</span><span class="visually-hidden">{full}</span>'


@register.simple_tag(takes_context=True)
def short_name(context, name: str) -> SafeString:
    """A name as the history shows it (``_name``); needs ``short_names``."""
    return mark_safe(_name(name, context.get("short_names") or {}))


def _score_cells(hand) -> str:
    """A cell per side: the hand's change over the new total (negative totals marked)."""
    return "".join(
        f'<td class="text-end"><span class="small">{score.delta:+d}</span><br>'
        f'<strong class="{"negative" if score.total < 0 else ""}">{score.total:d}</strong></td>'
        for score in hand.side_scores
    )


@register.simple_tag
def score_rows(rows: list[dict], partnership: bool, flash: object = None) -> SafeString:
    """The scoreboard's rows: each side's name (its players in partnership play) and total, the leaders marked.

    ``flash``: a hand was just saved, so each side's change shows beside its total and flashes (app.css).
    A long name is cut short on the screen; the title and the accessible name keep it whole.
    """
    leads = escape(gettext("leads"))  # Outside the f-string below: xgettext does not look inside f-strings.
    leads = f' <span class="visually-hidden">{leads}</span>'
    html = []
    for row in rows:
        full = escape(row["side"].name)
        name = full + (leads if row["leading"] else "")
        if partnership:
            name += f'<br><small class="text-muted">{escape(" & ".join(row["members"]))}</small>'
        delta = row.get("delta", 0)
        change = f'<td class="delta{" negative" if delta < 0 else ""}">{delta:+d}</td>' if flash and delta else ""
        html.append(
            f'<tr class="{"leader" if row["leading"] else ""}{" changed" if change else ""}">'
            f'<th scope="row" title="{full}" class="side-name">{name}</th>'
            f'<td class="total {"negative" if row["total"] < 0 else ""}">{row["total"]:d}</td>{change}</tr>'
        )
    return mark_safe("".join(html))
