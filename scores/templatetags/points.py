"""A point of the game in words ("Off-jack"), and a standings row's count of one kind of point."""

from __future__ import annotations

from django import template

from ..engine import problems

register = template.Library()


@register.filter
def point_name(key: str) -> str:
    """A point's key (``rules.CATALOGUE``) as players say it, in the page's language."""
    return problems.point_name(key)


@register.filter
def won(row, key: str) -> int:
    """The hands a standings row's player's side won the point ``key`` in."""
    return row.won[key]
