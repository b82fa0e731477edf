"""Template tags that turn rows already in a page's context into charts (``scores.charts``), with no query of their own."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from .. import charts

register = template.Library()


@register.simple_tag
def score_chart(sides, hands, target: int) -> charts.Chart:
    """A game's score chart from ``scoreboard_context``'s sides and hands (with their scores prefetched)."""
    totals = [{score.side_id: score.total for score in hand.scores.all()} for hand in hands]
    return charts.score_chart([(side.pk, side.name) for side in sides], totals, target, title=_("Score by hand"), x_label=_("Hand"))
