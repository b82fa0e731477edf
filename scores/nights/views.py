"""Card nights: a league's list of them, starting one, its page (live, and on a big screen), the next round, a table's
scorer. Only owners start nights and rounds and pick a table's scorer; every member sees them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from ..common.refusals import Refused
from ..common.requests import HtmxHttpRequest
from ..engine import rules
from ..engine.problems import describe
from ..leagues.access import league_for
from ..leagues.models import Role
from ..table.forms.hands import add_problems
from ..table.models import Game
from . import selectors, services
from .access import night_for
from .forms import NextRoundForm, NightForm, TableScorerForm
from .models import Night, Round


@login_required
@require_safe
def night_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's card nights, newest first."""
    league, membership = league_for(request.user, slug)
    found = league.nights.annotate(played=Count("played_rounds"))
    return render(request, "scores/nights/nights.html", {"league": league, "membership": membership, "nights": found})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def night_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Start a card night: who is present, how they are seated, the rounds. "Preview" says how the tables fall."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    form = NightForm(request.POST or None, league=league)
    if request.method == "POST" and form.is_valid() and "preview" not in request.POST:
        data = form.cleaned_data
        try:
            night = services.start_night(
                league=league,
                name=data["name"],
                played_on=data["played_on"],
                seating=data["seating"],
                rounds=data["rounds"],
                rotation=data["rotation"],
                game_rules=data["rules"],
                players=list(data["players"]),
                guests=data["guests"],
                by=request.user,
            )
        except rules.RulesError as error:
            add_problems(form, error)
        else:
            messages.success(request, gettext("The night has started: round 1 is seated."))
            return redirect(night)
    context = {"league": league, "membership": membership, "form": form}
    return render(request, "scores/nights/night_new.html", context, status=400 if form.errors else 200)


def _etag(request: HttpRequest, night: Night) -> str:
    """The night's version (``selectors.night_version``) and the language: same ETag, same fragment."""
    return f'"{selectors.night_version(night)}-{get_language()}"'


def _live(request: HttpRequest, night: Night, template: str, context: dict) -> HttpResponse:
    """The live part alone, for htmx's poll: answered 304 while nothing changed."""
    etag = _etag(request, night)
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render(request, f"{template}#live", {**context, **selectors.night_context(night)})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@login_required
@require_safe
@vary_on_headers("HX-Request")
def night_detail(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """A card night: every table of every round with its score, and the night's standings, kept up to date while it
    runs; the owners start the next round and pick who scores each table here."""
    night, membership = night_for(request.user, slug, pk)
    context = {"league": night.league, "membership": membership, "is_owner": membership.allows(Role.OWNER)}
    if request.htmx:
        return _live(request, night, "scores/nights/night_detail.html", context)
    context = _owner_context(night, context) if context["is_owner"] else {**context, **selectors.night_context(night)}
    return render(request, "scores/nights/night_detail.html", context)


def _owner_context(night: Night, context: dict, *, round_form: NextRoundForm | None = None) -> dict:
    """The night's page with the owner's forms: the next round, and each table's scorer in the latest round."""
    context = {**context, **selectors.night_context(night)}
    latest = context["latest"]
    if round_form is None and not context["over"] and latest is not None and latest.number < night.rounds:
        round_form = NextRoundForm(
            league=night.league,
            also=context["present"],
            initial={"players": [p.pk for p in context["present"]], "number": latest.number + 1},
        )
    scorers = [
        (table, TableScorerForm(league=night.league, prefix=f"t{table.game.pk}", initial={"scorer": table.game.scorer_id}))
        for table in (latest.tables if latest else [])
        if not table.game.is_finished
    ]
    return {**context, "round_form": round_form, "scorer_forms": scorers}


@login_required
@require_safe
@vary_on_headers("HX-Request")
def night_screen(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The night on a big screen across the room: the tables and the standings in large type, kept up to date."""
    night, membership = night_for(request.user, slug, pk)
    context = {"league": night.league, "membership": membership}
    if request.htmx:
        return _live(request, night, "scores/nights/night_screen.html", context)
    return render(request, "scores/nights/night_screen.html", {**context, **selectors.night_context(night)})


@login_required
@require_safe
def round_print(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    """A round's table cards and score sheets, a page each, to print for the tables that score on paper."""
    night, membership = night_for(request.user, slug, pk)
    context = selectors.round_printout(night, get_object_or_404(Round, night=night, number=number))
    return render(request, "scores/nights/round_print.html", {**context, "league": night.league, "membership": membership})


@login_required
@require_POST
def round_new(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Seat the next round for the players present now."""
    night, membership = night_for(request.user, slug, pk, Role.OWNER)
    present = selectors.night_context(night)["present"]
    form = NextRoundForm(request.POST, league=night.league, also=present)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.start_round(
                night=night, number=data["number"], players=list(data["players"]), guests=data["guests"], unfinished=data["unfinished"]
            )
        except services.RoundNotNext as refused:
            # The page as it stands, offering the round that is next.
            messages.error(request, str(refused))
            context = _owner_context(night, {"league": night.league, "membership": membership, "is_owner": True})
            return render(request, "scores/nights/night_detail.html", context, status=409)
        except Refused as refused:
            messages.warning(request, str(refused))
            return redirect(night)
        except rules.RulesError as error:
            form.add_error(None, describe(error.problems))
        else:
            messages.success(request, gettext("Round %(number)s is seated.") % {"number": data["number"]})
            return redirect(night)
    context = _owner_context(night, {"league": night.league, "membership": membership, "is_owner": True}, round_form=form)
    return render(request, "scores/nights/night_detail.html", context, status=400)


@login_required
@require_POST
def table_scorer(request: HttpRequest, slug: str, pk: int, game_pk: int) -> HttpResponse:
    """Who records one table of the night besides the owners."""
    night, _membership = night_for(request.user, slug, pk, Role.OWNER)
    game = get_object_or_404(Game, round__night=night, pk=game_pk)
    form = TableScorerForm(request.POST, league=night.league, prefix=f"t{game.pk}")
    if not form.is_valid():
        messages.error(
            request,
            # An ErrorList's items are its messages (str); the stubs add ValidationError.
            gettext("Scorer of table %(table)s: %(errors)s") % {"table": game.table, "errors": " ".join(form.errors["scorer"])},  # type: ignore[arg-type]
        )
        return redirect(night)
    scorer = form.cleaned_data["scorer"]
    try:
        services.set_table_scorer(game=game, user_id=scorer.pk if scorer else None)
    except Refused as refused:
        messages.error(request, str(refused))
    else:
        if scorer:
            messages.success(request, gettext("%(user)s records table %(table)s.") % {"user": scorer.get_username(), "table": game.table})
        else:
            messages.success(request, gettext("Only the owners record table %(table)s.") % {"table": game.table})
    return redirect(night)
