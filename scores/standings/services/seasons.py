"""Writes to a league's seasons: start a new one, rename one."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ...common.refusals import Refused
from ...leagues.models import League
from ...leagues.services import lock_league
from ...table.models import Game
from ..models import Season
from .totals import move_games


@transaction.atomic
def start_season(*, league: League, name: str, starts_on: datetime.date, by) -> Season:
    """A new season from ``starts_on``: the games played from that day on are its games from now on.

    Refused if it would not start after the latest season (a season already begun is never split), or if the
    league has a season of that name. ``by`` must still be an owner.
    """
    lock_league(league, by)
    previous = Season.objects.filter(league=league).order_by("-starts_on").first()
    if previous is not None and starts_on <= previous.starts_on:
        raise Refused(
            _("A new season must start after %(season)s, which started on %(day)s.")
            % {"season": previous.name, "day": date_format(previous.starts_on, "DATE_FORMAT")}
        )
    # The games it takes, locked: one that ends meanwhile is counted in the season it ends in, not the one before.
    list(Game.objects.select_for_update().filter(league=league, played_on__gte=starts_on).values_list("pk"))
    try:
        with transaction.atomic():
            season = Season.objects.create(league=league, name=name, starts_on=starts_on)
    except IntegrityError:
        raise Refused(_("The league already has a season called “%(name)s”.") % {"name": name}) from None
    move_games(league=league, season=season, previous=previous)
    return season


@transaction.atomic
def rename_season(*, season: Season, name: str) -> None:
    """Give a season another name; refused if the league has another season of that name."""
    try:
        with transaction.atomic():
            Season.objects.filter(pk=season.pk).update(name=name)
    except IntegrityError:
        raise Refused(_("The league already has a season called “%(name)s”.") % {"name": name}) from None
    season.name = name
