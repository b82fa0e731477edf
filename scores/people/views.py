"""A league's people: its players and guests, claims of a guest's games, renaming, archiving and merging players.

Every member sees the list and may claim a guest's games; scorers add guests; owners rename, archive, merge and
answer the claims.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..common.refusals import Gone, Refused
from ..leagues.access import league_for
from ..leagues.models import League, Membership, Player, Role
from . import selectors, services
from .forms import ArchiveForm, ClaimDecisionForm, GuestForm, MergeForm, RenameForm
from .models import Claim


def _player(league: League, pk: int) -> Player:
    return get_object_or_404(Player, league=league, pk=pk)


def _gone(request: HttpRequest, league: League, gone: Gone) -> HttpResponse:
    """A change to a player another request merged away meanwhile: said on the people page, as it stands now."""
    messages.error(request, str(gone))
    return redirect("scores:people", league.slug)


def _people(request: HttpRequest, league: League, membership: Membership, *, status: int = 200, **forms) -> HttpResponse:
    context = {
        "league": league,
        "membership": membership,
        "is_owner": membership.allows(Role.OWNER),
        "can_score": membership.allows(Role.SCORER),
        "guest_form": forms.get("guest_form") or GuestForm(),
        "merge_form": forms.get("merge_form") or MergeForm(league=league),
        **selectors.people_context(league, request.user),
    }
    return render(request, "scores/people/people.html", context, status=status)


@login_required
@require_safe
def people(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's players: who has an account, who is a guest, who is archived; and the claims waiting."""
    league, membership = league_for(request.user, slug)
    return _people(request, league, membership)


@login_required
@require_POST
def guest_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a guest: a player with a name and no account."""
    league, membership = league_for(request.user, slug, Role.SCORER)
    form = GuestForm(request.POST)
    if form.is_valid():
        try:
            guest = services.add_guest(league=league, name=form.cleaned_data["name"])
        except Refused as refused:
            form.add_error("name", str(refused))
        else:
            messages.success(request, gettext("%(name)s is a guest of the league.") % {"name": guest.name})
            return redirect("scores:people", league.slug)
    return _people(request, league, membership, status=400, guest_form=form)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_rename(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Give a player another name (their solo games' sides too)."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    player = _player(league, pk)
    form = RenameForm(request.POST or None, initial={"name": player.name})
    if request.method == "POST" and form.is_valid():
        old = player.name
        try:
            services.rename(player=player, name=form.cleaned_data["name"])
        except Gone as gone:
            return _gone(request, league, gone)
        except Refused as refused:
            form.add_error("name", str(refused))
        else:
            messages.success(request, gettext("%(old)s is now %(new)s.") % {"old": old, "new": player.name})
            return redirect("scores:people", league.slug)
    context = {"league": league, "membership": membership, "player": player, "form": form}
    return render(request, "scores/people/player_rename.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def player_archive(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Archive a player (the pickers leave them out; their games stay) or bring them back."""
    league, _membership = league_for(request.user, slug, Role.OWNER)
    player = _player(league, pk)
    form = ArchiveForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Nothing changed: the page did not say whether to archive %(name)s.") % {"name": player.name})
        return redirect("scores:people", league.slug)
    try:
        services.set_archived(player=player, archived=form.cleaned_data["archived"])
    except Gone as gone:
        return _gone(request, league, gone)
    if player.archived:
        messages.success(request, gettext("%(name)s is archived: new games and card nights no longer offer them.") % {"name": player.name})
    else:
        messages.success(request, gettext("%(name)s is back in the pickers.") % {"name": player.name})
    return redirect("scores:people", league.slug)


@login_required
@require_POST
def player_claim(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A member asks for a guest's games to be theirs; an owner confirms."""
    league, _membership = league_for(request.user, slug)
    player = _player(league, pk)
    try:
        services.claim_player(player=player, user=request.user)
    except Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, gettext("Asked: once an owner confirms, %(name)s's games are yours.") % {"name": player.name})
    return redirect("scores:people", league.slug)


@login_required
@require_POST
def claim_decide(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Confirm or decline a member's claim of a guest's games."""
    league, _membership = league_for(request.user, slug, Role.OWNER)
    claim = get_object_or_404(Claim.objects.select_related("player__league", "user"), player__league=league, pk=pk)
    form = ClaimDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Nothing changed: choose Confirm or Decline."))
        return redirect("scores:people", league.slug)
    confirm = form.cleaned_data["decision"] == "confirm"
    try:
        services.decide_claim(claim=claim, confirm=confirm, by=request.user)
    except Refused as refused:
        messages.error(request, str(refused))
    else:
        names = {"user": claim.user.get_username(), "name": claim.player.name}
        if confirm:
            messages.success(request, gettext("%(name)s's games are now %(user)s's.") % names)
        else:
            messages.success(request, gettext("%(user)s's claim of %(name)s was declined.") % names)
    return redirect("scores:people", league.slug)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def merge(request: HttpRequest, slug: str) -> HttpResponse:
    """Merge two players who are one person: first what it would do (GET), then the merge itself (POST)."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    form = MergeForm(request.POST if request.method == "POST" else request.GET, league=league)
    if not form.is_valid():
        return _people(request, league, membership, status=400, merge_form=form)
    keep, drop = form.cleaned_data["keep"], form.cleaned_data["drop"]
    if request.method == "POST":
        try:
            services.merge_players(keep=keep, drop=drop, by=request.user)
        except Gone as gone:
            return _gone(request, league, gone)
        except Refused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, gettext("%(drop)s is merged into %(keep)s.") % {"drop": drop.name, "keep": keep.name})
            return redirect("scores:people", league.slug)
    preview = selectors.merge_preview(keep, drop)
    refusal = preview["refusal"] and str(services.MergeRefused(keep, drop, preview["refusal"]))
    context = {"league": league, "membership": membership, "form": form, **preview, "refusal": refusal}
    return render(request, "scores/people/merge.html", context, status=200 if refusal is None else 409)
