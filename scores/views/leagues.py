"""A league's pages for its members: standings, games, settings and house rules, the public link, deleting it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from .. import charts, services
from ..forms.leagues import GameFilterForm, LeagueForm, LeagueRulesForm, StandingsForm
from ..models import Game, League, PlayerRating, Role, Seat
from ..standings import COLUMNS, standings
from .access import league_for

RECENT_GAMES = 5


GAMES_PER_PAGE = 25


def _games_with_seats(games):
    """Games with their winner and seated players, in two queries however many games."""
    seats = Seat.objects.select_related("player").order_by("position")
    return games.select_related("winner").prefetch_related(Prefetch("seats", queryset=seats)).order_by("-played_on", "-id")


def standings_context(request: HttpRequest, league: League) -> tuple[dict, int]:
    """The standings table for the query parameters, and the status: 400 when a parameter is not understood."""
    form = StandingsForm(request.GET or None)
    status, params = 200, {}
    if form.is_bound and not form.is_valid():
        status = 400  # Shown with the form's messages; the standings fall back to the defaults.
    elif form.is_bound:
        params = form.cleaned_data
    sort = params.get("sort") or "points"
    descending = params.get("order", "desc") != "asc"
    season = {"start": params.get("start"), "end": params.get("end"), "mode": params.get("mode") or ""}
    rows = standings(league, **season, sort=sort, descending=descending)
    query = request.GET.copy()
    headers = []
    for column in COLUMNS:
        query["sort"] = column.key
        # A click on the sorted column turns it round; a new column starts high to low, names A to Z.
        first = "asc" if column.key == "name" else "desc"
        query["order"] = ("asc" if descending else "desc") if column.key == sort else first
        headers.append({"column": column, "query": query.urlencode(), "sorted": column.key == sort})
    return {"form": form, "rows": rows, "headers": headers, "descending": descending}, status


CHART_GAMES = 200  # The chart's last rated games: a league of thousands would draw more points than a phone shows.


def _ratings_chart(league: League) -> charts.Chart:
    recent = Game.objects.filter(league=league).finished().order_by("-played_on", "-pk").values("pk")[:CHART_GAMES]
    ratings = (
        PlayerRating.objects.filter(game__in=recent).in_order_played().values_list("game_id", "player__name", "mu_after", "sigma_after")
    )
    points = [(game, name, mu - 3 * sigma) for game, name, mu, sigma in ratings]
    return charts.ratings_chart(points, title=_("Ratings over time"), x_label=_("Rated games"))


@login_required
@require_safe
@vary_on_headers("HX-Request")
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's standings, its players' ratings over time and its latest games."""
    league, membership = league_for(request.user, slug)
    table, status = standings_context(request, league)
    if request.htmx:
        return render(request, "scores/league_detail.html#standings", {"league": league, **table}, status=status)
    context = {
        "league": league,
        "membership": membership,
        "can_score": membership.allows(Role.SCORER),
        "games": _games_with_seats(league.games.all())[:RECENT_GAMES],
        "chart": _ratings_chart(league),
        **table,
    }
    return render(request, "scores/league_detail.html", context, status=status)


@login_required
@require_safe
def game_list(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's games, filtered by player, date and status, a page at a time."""
    league, membership = league_for(request.user, slug)
    form = GameFilterForm(request.GET or None, league=league)
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
        games = games.filter(**{key: data[key] for key in ("going_out", "min_bid", "steal", "smudge") if data[key] not in ("", None)})
    context = {"league": league, "membership": membership, "form": form, **paged(request, games)}
    return render(request, "scores/game_list.html", context, status=status)


def paged(request: HttpRequest, games) -> dict:
    """One page of these games (newest first) and the other GET parameters, for ``_pagination.html``."""
    query = request.GET.copy()
    query.pop("page", None)
    return {"page": Paginator(_games_with_seats(games), GAMES_PER_PAGE).get_page(request.GET.get("page")), "query": query.urlencode()}


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    """Start a league; whoever starts it is its owner."""
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = services.create_league(name=form.cleaned_data["name"], owner=request.user)
        messages.success(request, _("League “%(name)s” created. Invite the others from Members.") % {"name": league.name})
        return redirect(league)
    return render(request, "scores/league_form.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def league_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's name, the house rules its new games start with, and its public read-only link."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    # One page, two forms: the post says which (the house rules' form sends form=rules).
    posted_rules = request.method == "POST" and request.POST.get("form") == "rules"
    form = LeagueForm(request.POST if request.method == "POST" and not posted_rules else None, instance=league)
    rules_form = LeagueRulesForm(request.POST if posted_rules else None, instance=league)
    if posted_rules and rules_form.is_valid():
        rules_form.save()
        messages.success(request, _("House rules saved: new games start with them."))
        return redirect("scores:league_settings", league.slug)
    if request.method == "POST" and not posted_rules and form.is_valid():
        form.save()
        messages.success(request, _("League renamed."))
        return redirect("scores:league_settings", league.slug)
    public_url = request.build_absolute_uri(league.get_public_url()) if league.public_token else None
    context = {"league": league, "membership": membership, "form": form, "rules_form": rules_form, "public_url": public_url}
    return render(request, "scores/league_settings.html", context, status=400 if form.errors or rules_form.errors else 200)


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
    if action == "off":
        league.public_token = None
        messages.success(request, _("The public link is off: it no longer opens the league."))
    elif action == "new" or league.public_token is None:
        league.public_token = League.new_token()
        messages.success(request, _("The public link is on. Anyone with it can see the standings and games."))
    league.save(update_fields=["public_token"])
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
    return render(request, "scores/league_delete.html", {"league": league, "membership": membership})
