"""The rules a game is played by, in one short line: "10-point · to 52 · set pitcher can't go out · minimum bid 2"."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine import rules
from ..engine.problems import variant_name
from ..table.forms.games import point_label

register = template.Library()


def variant_words(played_by: rules.Rules) -> str:
    """The variant as players call it ("10-point"); a custom game with its points ("Custom: High, Five (5)")."""
    if played_by.variant == rules.CUSTOM.name:
        points = ", ".join(point_label(point) for point in played_by.kinds)
        return _("%(variant)s: %(points)s") % {"variant": variant_name(played_by.variant), "points": points}
    return variant_name(played_by.variant)


@register.filter
def rules_line(played_by: rules.Rules | None) -> str:
    """The variant, the target (or the number of hands), then each house rule that differs from the variant's own; its own rules go unsaid.
    The variant is said for the 4-point game too: a league may play several."""
    if played_by is None:
        return ""
    house = played_by.house
    # Counted, so a language that says the points ("a 11 punti") can say one ("a 1 punto"): any target is allowed.
    target = ngettext("to %(target)s", "to %(target)s", played_by.target) % {"target": played_by.target}
    if played_by.hands is not None:  # A game of a number of hands: its target decides nothing.
        target = ngettext("%(hands)s hand, the side ahead wins", "%(hands)s hands, the side ahead wins", played_by.hands)
        target %= {"hands": played_by.hands}
    parts = [variant_words(played_by), target]
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
