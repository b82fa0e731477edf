"""A game in words where more than a template needs them: the rules line (the pages, and the message after the rules
changed) and a finished game's result to share (the share button, beside the same result on the page)."""

from __future__ import annotations

from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

from ..engine import rules
from ..engine.problems import variant_name
from .forms.games import point_label


def variant_words(played_by: rules.Rules) -> str:
    """The variant as players call it ("10-point"); a custom game with its points ("Custom: High, Five (5)")."""
    if played_by.variant == rules.CUSTOM.name:
        points = ", ".join(point_label(point) for point in played_by.kinds)
        return gettext("%(variant)s: %(points)s") % {"variant": variant_name(played_by.variant), "points": points}
    return variant_name(played_by.variant)


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
        parts.append(gettext("set pitcher can't go out"))
    if "min_bid" in house:
        parts.append(gettext("minimum bid %(bid)s") % {"bid": played_by.min_bid})
    if "steal" in house:
        parts.append(gettext("no dealer's steal"))
    if "smudge" in house:
        parts.append(gettext("smudge wins"))
    if "negative" in house:
        parts.append(gettext("no negative scores"))
    return " · ".join(parts)


def paper_hands_words(hands: int) -> str:
    return ngettext("Recorded from paper, after %(hands)s hand.", "Recorded from paper, after %(hands)s hands.", hands) % {"hands": hands}


def share_text(context: dict) -> str:
    """A finished game's result in words, to share: who won, the final scores and the hands played."""
    game = context["game"]
    scores = ", ".join(f"{row['side'].name} {row['total']}" for row in context["rows"])
    hands = len(context["hands"])
    played = ngettext("%(count)s hand played.", "%(count)s hands played.", hands) % {"count": hands}
    if game.on_paper:  # No hands: the number written on the paper, if it was given.
        known = game.paper_hands
        played = gettext("Recorded from paper.") if known is None else paper_hands_words(known)
    return gettext("%(league)s, %(date)s: %(winner)s won. Final scores: %(scores)s. %(played)s") % {
        "league": game.league.name,
        "date": date_format(game.played_on, "DATE_FORMAT"),
        "winner": game.winner.name,
        "scores": scores,
        "played": played,
    }
