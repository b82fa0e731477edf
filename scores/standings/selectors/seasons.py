"""A league's seasons: each from its start date to the day before the next one starts; which is current."""

from __future__ import annotations

import datetime

from ...leagues.models import League
from ..models import Season


def seasons(league: League) -> list[Season]:
    """The league's seasons, newest first, each with ``ends_on``: the day before the next season starts (None for
    the latest, which runs on). One query."""
    found = list(Season.objects.filter(league=league).order_by("-starts_on"))
    later: datetime.date | None = None
    for season in found:
        season.ends_on = later - datetime.timedelta(days=1) if later else None
        later = season.starts_on
    return found


def current_season(found: list[Season], today: datetime.date) -> Season | None:
    """Of these seasons (``seasons``' answer), the one today falls in; None before the first has started."""
    return next((season for season in found if season.starts_on <= today), None)
