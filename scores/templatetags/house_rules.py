"""The rules a game is played by, in one short line: "To 11 · set pitcher can't go out · minimum bid 2"."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from .. import rules

register = template.Library()


def rules_line(played_by: rules.Rules) -> str:
    """The target, then each house rule that differs from the rule sheet's; the sheet's own rules go unsaid."""
    house = played_by.house
    parts = [_("To %(target)s") % {"target": played_by.target}]
    if "going_out" in house:
        parts.append(_("set pitcher can't go out"))
    if "min_bid" in house:
        parts.append(_("minimum bid %(bid)s") % {"bid": played_by.min_bid})
    if "steal" in house:
        parts.append(_("no dealer's steal"))
    if "smudge" in house:
        parts.append(_("smudge wins"))
    return " · ".join(parts)


@register.filter
def house_rules(obj) -> str:
    """A game's or a league's rules (``PlayedBy.rules``) as one line."""
    return rules_line(obj.rules)
