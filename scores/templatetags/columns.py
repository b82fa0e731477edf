"""The standings' columns in words (``standings.presentation``): a heading, its title, the headings of several."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from ..standings import presentation

register = template.Library()


@register.filter
def column_label(key: str) -> str:
    """A column's heading ("GP"), by its key."""
    return presentation.column_label(key)


@register.filter
def column_title(key: str) -> str:
    """What a column counts ("Games played"), by its key."""
    return presentation.column_title(key)


@register.filter
def column_labels(keys: Iterable[str]) -> list[str]:
    """Several columns' headings, by their keys."""
    return [presentation.column_label(key) for key in keys]
