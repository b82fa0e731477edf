"""A league's seasons: the list with each one's dates, starting a new one and renaming one (owners)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from ...common.refusals import Refused
from ...leagues.access import league_for
from ...leagues.forms.leagues import NewSeasonForm, SeasonNameForm
from ...leagues.models import Role
from .. import selectors, services
from ..models import Season


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's seasons, newest first; a new one starts here."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    form = NewSeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.start_season(
                league=league, name=form.cleaned_data["name"], starts_on=form.cleaned_data["starts_on"], by=request.user
            )
        except Refused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(request, gettext("Season “%(name)s” has started.") % {"name": season.name})
            return redirect("scores:season_list", league.slug)
    found = selectors.seasons(league)
    context = {
        "league": league,
        "membership": membership,
        "form": form,
        "seasons": [(season, SeasonNameForm(prefix=f"s{season.pk}", initial={"name": season.name})) for season in found],
        "current": selectors.current_season(found, timezone.localdate()),
    }
    return render(request, "scores/standings/seasons.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def season_rename(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Give a season another name."""
    league, _membership = league_for(request.user, slug, Role.OWNER)
    season = get_object_or_404(Season, league=league, pk=pk)
    form = SeasonNameForm(request.POST, prefix=f"s{season.pk}")
    if not form.is_valid():
        # An ErrorList's items are its messages (str); the stubs add ValidationError.
        messages.error(request, gettext("Name of “%(name)s”: %(errors)s") % {"name": season.name, "errors": " ".join(form.errors["name"])})  # type: ignore[arg-type]
        return redirect("scores:season_list", league.slug)
    old = season.name
    try:
        services.rename_season(season=season, name=form.cleaned_data["name"])
    except Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, gettext("“%(old)s” is now “%(new)s”.") % {"old": old, "new": season.name})
    return redirect("scores:season_list", league.slug)
