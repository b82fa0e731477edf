"""A league's members and roles, and invite links: made, revoked and accepted."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ...common.refusals import Refused
from ...common.requests import AuthenticatedHttpRequest
from .. import selectors, services
from ..access import league_for
from ..forms.members import InviteForm, MemberRoleForm
from ..models import Invite, League, Membership, Role


@login_required
@require_safe
def member_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's members with their roles, and its invite links."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    return render(request, "scores/leagues/members.html", _members_context(request, league, membership))


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
    league, _membership = league_for(request.user, slug, Role.OWNER)
    member = get_object_or_404(league.memberships.select_related("user"), pk=pk)
    form = MemberRoleForm(request.POST, instance=member, prefix=f"m{member.pk}")
    if not form.is_valid():
        # An ErrorList's items are its messages (str); the stubs add ValidationError.
        messages.error(request, _("Role: %(errors)s") % {"errors": " ".join(form.errors.get("role", []))})  # type: ignore[arg-type]
        return redirect("scores:member_list", league.slug)
    try:
        member = services.change_role(league=league, member_pk=member.pk, role=form.cleaned_data["role"], by=request.user)
    except Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("%(user)s is now %(role)s.") % {"user": member.user, "role": member.get_role_display()})
    return redirect("scores:member_list", league.slug)


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Take someone out of the league; the league always keeps an owner."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    member = get_object_or_404(league.memberships, pk=pk)
    leaving = member.pk == membership.pk
    try:
        member = services.remove_member(league=league, member_pk=member.pk, by=request.user)
    except Refused as refused:
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
    league, membership = league_for(request.user, slug, Role.OWNER)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return render(request, "scores/leagues/members.html", _members_context(request, league, membership, invite_form=form), status=400)
    services.create_invite(league=league, by=request.user, role=form.cleaned_data["role"], days=form.cleaned_data["days"])
    messages.success(request, _("Invite link made: send it to whoever should join."))
    return redirect("scores:member_list", league.slug)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Revoke an invite link: opening it no longer joins the league."""
    league, _membership = league_for(request.user, slug, Role.OWNER)
    invite = get_object_or_404(league.invites, pk=pk)
    services.revoke_invite(invite=invite)
    messages.success(request, _("Invite revoked."))
    return redirect("scores:member_list", league.slug)


@login_required
@require_http_methods(["GET", "POST"])
def invite_accept(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """Opening an invite link asks to join the league; joining takes one tap. Anyone else logs in or signs up first.

    A link that was revoked or has expired, or that an owner made before removing this user, says so (410, 403).
    """
    invite = get_object_or_404(Invite.objects.select_related("league"), token=token)
    reason = selectors.invite_refusal(invite, request.user)
    refusal = str(services.InviteRefused(reason)) if reason is not None else None
    if request.method == "POST" and refusal is None:
        try:
            _membership, created = services.accept_invite(invite=invite, user=request.user)
        except Refused as refused:  # Revoked or the user removed a moment ago.
            refusal = str(refused)
        else:
            if created:
                messages.success(request, _("Welcome to %(league)s.") % {"league": invite.league})
            else:
                messages.info(request, _("You were already a member of %(league)s.") % {"league": invite.league})
            return redirect(invite.league)
    if refusal is not None:
        status = 410 if invite.revoked or invite.is_expired else 403
        return render(request, "scores/leagues/invite.html", {"invite": invite, "refusal": refusal}, status=status)
    current = Membership.objects.filter(league=invite.league, user=request.user).first()
    return render(request, "scores/leagues/invite.html", {"invite": invite, "current": current})
