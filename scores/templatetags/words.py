"""Lists in words, in the page's language."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from ..engine import problems

register = template.Library()


@register.filter
def alternatives(items: Iterable[object]) -> str:
    """Items as a choice: "Player, GP, W or Rating" (``problems.alternatives``)."""
    return problems.alternatives(items)
