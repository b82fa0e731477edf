"""The rules a game is played by, in one short line: "10-point · to 52 · set pitcher can't go out · minimum bid 2"."""

from __future__ import annotations

from django import template

from ..table.presentation import rules_line

register = template.Library()
register.filter(rules_line)


@register.filter
def house_rules(obj) -> str:
    """A game's or a league's rules (``PlayedBy.rules``) as one line."""
    return rules_line(obj.rules)
