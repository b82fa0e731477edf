"""A league's pages for its members: standings, games, settings and house rules, the public link, deleting it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from ...common.requests import HtmxHttpRequest
from ...standings import selectors as standings_selectors
from .. import selectors, services
from ..access import league_for
from ..forms.leagues import GameFilterForm, LeagueForm, LeagueRulesForm, StandingsForm
from ..models import Role

RECENT_GAMES = 5


@login_required
@require_safe
@vary_on_headers("HX-Request", "HX-History-Restore-Request")
def league_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A league's standings, its players' ratings over time and its latest games."""
    league, membership = league_for(request.user, slug)
    form = StandingsForm(request.GET or None, league=league, variants=standings_selectors.variants_played(league))
    standings = {"form": form, **standings_selectors.standings_table(league, **form.query)}
    status = 400 if form.errors else 200  # Shown with the form's messages; the standings fall back to the defaults.
    standings["chart"] = standings_selectors.ratings_chart(league, season=form.chosen)
    if request.htmx and not request.htmx.history_restore_request:
        # A re-sort or a filter: the table alone, and the season's chart. Back to a page htmx no longer keeps asks for the whole page.
        return render(request, "scores/leagues/league_detail.html#standings", {"league": league, "oob": True, **standings}, status=status)
    context = {
        "league": league,
        "membership": membership,
        "can_score": membership.allows(Role.SCORER),
        "games": league.games.with_seats()[:RECENT_GAMES],
        **standings,
    }
    return render(request, "scores/leagues/league_detail.html", context, status=status)


@login_required
@require_safe
def game_list(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's games, filtered by player, date and status, a page at a time."""
    league, membership = league_for(request.user, slug)
    form = GameFilterForm(request.GET or None, league=league, variants=standings_selectors.variants_played(league))
    games = league.games.all()
    status = 200
    if form.is_bound and not form.is_valid():
        status = 400
    elif form.is_bound:
        data = form.cleaned_data
        if data["player"]:
            games = games.filter(seats__player=data["player"])
        if data["status"]:
            games = games.filter(status=data["status"])
        if data["start"]:
            games = games.filter(played_on__gte=data["start"])
        if data["end"]:
            games = games.filter(played_on__lte=data["end"])
        games = games.filter(**{key: data[key] for key in GameFilterForm.RULES if data.get(key) not in ("", None)})
    context = {"league": league, "membership": membership, "form": form, "page": selectors.games_page(games, request.GET.get("page"))}
    return render(request, "scores/leagues/game_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    """Start a league; whoever starts it is its owner."""
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = services.create_league(name=form.cleaned_data["name"], owner=request.user)
        messages.success(request, _("League “%(name)s” created. Invite the others from Members.") % {"name": league.name})
        return redirect(league)
    return render(request, "scores/leagues/league_form.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def league_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's name, the house rules its new games start with, and its public read-only link."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    # One page, two forms: the post says which (the house rules' form sends form=rules).
    posted_rules = request.method == "POST" and request.POST.get("form") == "rules"
    form = LeagueForm(request.POST if request.method == "POST" and not posted_rules else None, instance=league)
    rules_form = LeagueRulesForm(request.POST if posted_rules else None, league=league)
    if posted_rules and rules_form.is_valid():
        services.set_house_rules(league=league, rules=rules_form.cleaned_data["rules"])
        messages.success(request, _("House rules saved: new games start with them."))
        return redirect("scores:league_settings", league.slug)
    if request.method == "POST" and not posted_rules and form.is_valid():
        services.rename_league(league=league, name=form.cleaned_data["name"])
        messages.success(request, _("League renamed."))
        return redirect("scores:league_settings", league.slug)
    public_url = request.build_absolute_uri(league.get_public_url()) if league.public_token else None
    context = {"league": league, "membership": membership, "form": form, "rules_form": rules_form, "public_url": public_url}
    return render(request, "scores/leagues/league_settings.html", context, status=400 if form.errors or rules_form.errors else 200)


PUBLIC_LINK_ACTIONS = {"on", "off", "new"}


@login_required
@require_POST
def league_public_link(request: HttpRequest, slug: str) -> HttpResponse:
    """Turn the public read-only link on or off, or replace it by a new one (the old one stops working)."""
    league, _membership = league_for(request.user, slug, Role.OWNER)
    action = request.POST.get("action")
    if action not in PUBLIC_LINK_ACTIONS:
        messages.error(request, _("Unknown action for the public link: choose on, off or new."))
        return redirect("scores:league_settings", league.slug)
    before = league.public_token
    services.set_public_link(league=league, on=action != "off", new=action == "new")
    if action == "off":
        messages.success(request, _("The public link is off: it no longer opens the league."))
    elif league.public_token != before:
        messages.success(request, _("The public link is on. Anyone with it can see the standings and games."))
    return redirect("scores:league_settings", league.slug)


@login_required
@require_http_methods(["GET", "POST"])
def league_delete(request: HttpRequest, slug: str) -> HttpResponse:
    """Delete the league with all its games, after the owner confirms."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    if request.method == "POST":
        name = league.name
        services.delete_league(league=league)
        messages.success(request, _("League “%(name)s” deleted.") % {"name": name})
        return redirect("scores:home")
    return render(request, "scores/leagues/league_delete.html", {"league": league, "membership": membership})
