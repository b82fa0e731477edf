"""League pages: standings, games, players, settings, members and invites, and the public read-only link.

Access is checked in every view, server side: members through
``views._get_league_for`` (404 for anyone else), the public link through its
token (404 once it is turned off or changed).
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from . import charts, rules, services
from .league_forms import GameFilterForm, InviteForm, LeagueForm, LeagueRulesForm, MemberRoleForm, StandingsForm
from .models import Game, HandScore, Invite, League, Membership, Player, PlayerRating, Role, Seat
from .standings import COLUMNS, standings
from .views import _get_league_for, scoreboard_context

RECENT_GAMES = 5
GAMES_PER_PAGE = 25


def _games_with_seats(games):
    """Games with their winner and seated players, in two queries however many games."""
    seats = Seat.objects.select_related("player").order_by("position")
    return games.select_related("winner").prefetch_related(Prefetch("seats", queryset=seats)).order_by("-played_on", "-id")


def _standings_context(request: HttpRequest, league: League) -> tuple[dict, int]:
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
    league, membership = _get_league_for(request.user, slug)
    table, status = _standings_context(request, league)
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
    league, membership = _get_league_for(request.user, slug)
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
    context = {"league": league, "membership": membership, "form": form, **_paged(request, games)}
    return render(request, "scores/game_list.html", context, status=status)


def _paged(request: HttpRequest, games) -> dict:
    """One page of these games (newest first) and the other GET parameters, for ``_pagination.html``."""
    query = request.GET.copy()
    query.pop("page", None)
    return {"page": Paginator(_games_with_seats(games), GAMES_PER_PAGE).get_page(request.GET.get("page")), "query": query.urlencode()}


@login_required
@require_safe
def player_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One player: games with results and rating changes, rating over time, head-to-head records, best partner."""
    league, membership = _get_league_for(request.user, slug)
    player = get_object_or_404(Player, league=league, pk=pk)
    return render(request, "scores/player_detail.html", {"league": league, "membership": membership, **player_context(player)})


def player_context(player: Player) -> dict:
    """The player page's figures, in four queries however many games the player has played."""
    seats = list(
        Seat.objects.filter(player=player).select_related("game__league", "game__winner", "side").order_by("-game__played_on", "-game_id")
    )
    game_ids = [seat.game_id for seat in seats]
    others = list(Seat.objects.filter(game__in=game_ids).exclude(player=player).select_related("player"))
    totals: dict[int, dict[int, int]] = {}
    for game_id, side_id, total in HandScore.objects.filter(hand__game__in=game_ids, hand__ends_game=True).values_list(
        "hand__game_id", "side_id", "total"
    ):
        totals.setdefault(game_id, {})[side_id] = total
    ratings = list(PlayerRating.objects.filter(player=player).in_order_played())
    change = {r.game_id: r.change for r in ratings}
    head_to_head: dict[int, dict] = {}
    partners: dict[int, dict] = {}
    games = []
    for seat in seats:
        game = seat.game
        places = rules.finishing_ranks(totals[game.pk], game.winner_id) if game.is_finished else {}
        games.append(
            {
                "game": game,
                "side": seat.side,
                "won": game.winner_id == seat.side_id,
                "place": places.get(seat.side_id),
                "total": totals.get(game.pk, {}).get(seat.side_id),
                "rating_change": change.get(game.pk),
            }
        )
        if not game.is_finished:
            continue
        for other in others:
            if other.game_id != game.pk:
                continue
            if other.side_id == seat.side_id:
                record = partners.setdefault(other.player_id, {"player": other.player, "games": 0, "wins": 0})
                record["games"] += 1
                record["wins"] += game.winner_id == seat.side_id
            else:
                record = head_to_head.setdefault(other.player_id, {"player": other.player, "won": 0, "lost": 0, "tied": 0})
                mine, theirs = places[seat.side_id], places[other.side_id]
                record["won" if mine < theirs else "lost" if mine > theirs else "tied"] += 1
    best_partner = max(partners.values(), key=lambda p: (p["wins"] / p["games"], p["games"]), default=None)
    chart = charts.line_chart(
        [charts.Series(player.name, [(i, round(r.after, 1)) for i, r in enumerate(ratings, start=1)])],
        title=_("Rating over time"),
        x_label=_("Rated games"),
    )
    return {
        "player": player,
        "games": games,
        "head_to_head": sorted(head_to_head.values(), key=lambda r: r["player"].name.casefold()),
        "best_partner": best_partner,
        "rating": ratings[-1].after if ratings else None,
        "chart": chart,
    }


# Settings: the owner's.


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
    league, membership = _get_league_for(request.user, slug, Role.OWNER)
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
    league, _membership = _get_league_for(request.user, slug, Role.OWNER)
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
    league, membership = _get_league_for(request.user, slug, Role.OWNER)
    if request.method == "POST":
        name = league.name
        services.delete_league(league=league)
        messages.success(request, _("League “%(name)s” deleted.") % {"name": name})
        return redirect("scores:home")
    return render(request, "scores/league_delete.html", {"league": league, "membership": membership})


# Members and invites: the owner's.


@login_required
@require_safe
def member_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's members with their roles, and its invite links."""
    league, membership = _get_league_for(request.user, slug, Role.OWNER)
    return render(request, "scores/members.html", _members_context(request, league, membership))


def _members_context(request: HttpRequest, league: League, membership: Membership, **forms) -> dict:
    members = league.memberships.select_related("user").order_by("user__username")
    invites = [
        {"invite": invite, "url": request.build_absolute_uri(invite.get_absolute_url())}
        for invite in league.invites.active().select_related("created_by")
    ]
    return {
        "league": league,
        "membership": membership,
        "members": [{"membership": m, "form": MemberRoleForm(instance=m, prefix=f"m{m.pk}")} for m in members],
        "invites": invites,
        "invite_form": forms.get("invite_form") or InviteForm(),
    }


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Change a member's role; the league always keeps an owner."""
    league, _membership = _get_league_for(request.user, slug, Role.OWNER)
    member = get_object_or_404(league.memberships.select_related("user"), pk=pk)
    form = MemberRoleForm(request.POST, instance=member, prefix=f"m{member.pk}")
    if not form.is_valid():
        messages.error(request, _("Role: %(errors)s") % {"errors": " ".join(form.errors.get("role", []))})
        return redirect("scores:member_list", league.slug)
    try:
        member = services.change_role(league=league, member_pk=member.pk, role=form.cleaned_data["role"], by=request.user)
    except services.Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("%(user)s is now %(role)s.") % {"user": member.user, "role": member.get_role_display()})
    return redirect("scores:member_list", league.slug)


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Take someone out of the league; the league always keeps an owner."""
    league, membership = _get_league_for(request.user, slug, Role.OWNER)
    member = get_object_or_404(league.memberships, pk=pk)
    leaving = member.pk == membership.pk
    try:
        member = services.remove_member(league=league, member_pk=member.pk, by=request.user)
    except services.Refused as refused:
        messages.error(request, str(refused))
        return redirect("scores:member_list", league.slug)
    messages.success(request, _("%(user)s is no longer a member.") % {"user": member.user})
    if leaving:  # The league is no longer theirs to see.
        return redirect("scores:home")
    return redirect("scores:member_list", league.slug)


@login_required
@require_POST
def invite_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Make an invite link for a scorer or a viewer."""
    league, membership = _get_league_for(request.user, slug, Role.OWNER)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return render(request, "scores/members.html", _members_context(request, league, membership, invite_form=form), status=400)
    form.instance.league, form.instance.created_by = league, request.user
    form.instance.expires_at = timezone.now() + datetime.timedelta(days=form.cleaned_data["days"])
    form.save()
    messages.success(request, _("Invite link made: send it to whoever should join."))
    return redirect("scores:member_list", league.slug)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Revoke an invite link: opening it no longer joins the league."""
    league, _membership = _get_league_for(request.user, slug, Role.OWNER)
    invite = get_object_or_404(league.invites, pk=pk)
    invite.revoked = True
    invite.save(update_fields=["revoked"])
    messages.success(request, _("Invite revoked."))
    return redirect("scores:member_list", league.slug)


@login_required
@require_http_methods(["GET", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Opening an invite link asks to join the league; joining takes one tap. Anyone else logs in or signs up first.

    A link that was revoked or has expired, or that an owner made before removing this user, says so (410, 403).
    """
    invite = get_object_or_404(Invite.objects.select_related("league"), token=token)
    refusal = services.invite_refusal(invite, request.user)
    if request.method == "POST" and refusal is None:
        try:
            _membership, created = services.accept_invite(invite=invite, user=request.user)
        except services.Refused as refused:  # Revoked or the user removed a moment ago.
            refusal = str(refused)
        else:
            if created:
                messages.success(request, _("Welcome to %(league)s.") % {"league": invite.league})
            else:
                messages.info(request, _("You were already a member of %(league)s.") % {"league": invite.league})
            return redirect(invite.league)
    if refusal is not None:
        status = 410 if invite.revoked or invite.is_expired else 403
        return render(request, "scores/invite.html", {"invite": invite, "refusal": refusal}, status=status)
    current = Membership.objects.filter(league=invite.league, user=request.user).first()
    return render(request, "scores/invite.html", {"invite": invite, "current": current})


# The public read-only link: no account needed.


def _get_public_league(token: str) -> League:
    return get_object_or_404(League, public_token=token)


@require_safe
@vary_on_headers("HX-Request")
def public_league(request: HttpRequest, token: str) -> HttpResponse:
    """The standings and games of a league, read only, for whoever has the link."""
    league = _get_public_league(token)
    table, status = _standings_context(request, league)
    if request.htmx:
        return render(request, "scores/public_league.html#standings", {"league": league, "public": True, **table}, status=status)
    context = {"league": league, "public": True, **_paged(request, league.games.all()), **table}
    return render(request, "scores/public_league.html", context, status=status)


@require_safe
def public_game(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """One game of a league with a public link, read only."""
    league = _get_public_league(token)
    game = get_object_or_404(Game.objects.select_related("league", "winner"), league=league, pk=pk)
    return render(request, "scores/public_game.html", {"public": True, **scoreboard_context(game)})
