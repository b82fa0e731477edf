"""The rules a game is played by, in one short line: "10-point · To 52 · set pitcher can't go out · minimum bid 2"."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from .. import rules
from ..problems import point_name, variant_name

register = template.Library()


def rules_line(played_by: rules.Rules) -> str:
    """The variant (unsaid for the 4-point game, the default), the target, then each house rule that differs from
    the variant's rule sheet; the sheet's own rules go unsaid."""
    house = played_by.house
    parts = []
    if played_by.variant == rules.CUSTOM.name:
        points = ", ".join(point_name(key) for key in played_by.points)
        parts.append(_("%(variant)s: %(points)s") % {"variant": variant_name(played_by.variant), "points": points})
    elif played_by.variant != rules.DEFAULT_VARIANT:
        parts.append(variant_name(played_by.variant))
    parts.append(_("To %(target)s") % {"target": played_by.target})
    if "going_out" in house:
        parts.append(_("set pitcher can't go out"))
    if "min_bid" in house:
        parts.append(_("minimum bid %(bid)s") % {"bid": played_by.min_bid})
    if "steal" in house:
        parts.append(_("no dealer's steal"))
    if "smudge" in house:
        parts.append(_("smudge wins"))
    if "negative" in house:
        parts.append(_("no negative scores"))
    return " · ".join(parts)


@register.filter
def house_rules(obj) -> str:
    """A game's or a league's rules (``PlayedBy.rules``) as one line."""
    return rules_line(obj.rules)
