"""Template tags that turn rows already in a page's context into charts (``scores.engine.charts``), with no query of their own."""

from __future__ import annotations

from django import template
from django.db.models.functions import Lower
from django.template.defaultfilters import floatformat

from ..engine import charts
from ..standings.models import PlayerRating
from ..table import selectors

register = template.Library()


@register.simple_tag
def score_chart(game, sides, hands) -> charts.Chart:
    """A game's score chart from ``scoreboard_context``'s sides and hands (with their scores prefetched)."""
    return selectors.score_chart(game, sides, [{score.side_id: score.total for score in hand.side_scores} for hand in hands])


@register.simple_tag
def rating_changes(game) -> list:
    """Each player's stored rating change in a finished game (one query; none while the game is in progress)."""
    if not game.is_finished:
        return []
    return list(PlayerRating.objects.filter(game=game).select_related("player").order_by(Lower("player__name")))


@register.filter
def signed(value: float | None) -> str:
    """A rating change with its sign and one decimal, as the language writes numbers: +2.4, -1.0 (+2,4 in Italian)."""
    if value is None:
        return ""
    return ("+" if value >= 0 else "") + floatformat(value, 1)
