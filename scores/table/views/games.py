"""A game at the table: start it, its page with the scoreboard and the hand form, and saving, undoing, editing and deleting hands.

Every page works without JavaScript (post, redirect, get); with htmx, a write answers
with the parts of the page it changed.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from urllib.parse import urlencode

from django import db
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget, trigger_client_event

from ...common.refusals import Gone, Refused
from ...common.requests import HtmxHttpRequest
from ...engine import rules
from ...engine.problems import describe as describe_rules_problems
from ...leagues.access import league_for
from ...leagues.models import Membership, Role
from .. import selectors, services
from ..access import game_for, may_score, not_found_if_deleted
from ..answers import HandAnswer, record
from ..forms.games import GamePageForm, NewGameForm, RulesForm, RulesLineForm
from ..forms.hands import AuctionResultForm, HandForm, RestoreForm, UndoForm, VersionForm, add_problems, describe_problems, restore_token
from ..forms.paper import PaperResultForm
from ..models import Game, Hand
from ..presentation import rules_line, share_text
from ..scorer import scorer_state

logger = logging.getLogger(__name__)

# Sent with every htmx answer that changed the scores: the score chart reloads itself on it.
SCORES_CHANGED = "scores-changed"


# Sent when a hand was saved and only the scoreboard came back: the hand form clears its taps for the next hand.
HAND_SAVED = "hand-saved"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def game_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Seat the players, pick the rules and start a game; with htmx, the rules line or the seating for the choices
    made so far."""
    league, membership = league_for(request.user, slug, Role.SCORER)
    if request.htmx and request.method != "POST":
        line = RulesLineForm(request.GET, defaults=league.rules)
        if line.asked:
            return render(request, "scores/table/game_new.html#rules_line", {"rules": line.chosen_rules()})
        if line.seating:  # Who sits where, as the form would seat them (NewGameForm.clean): the page never works it out.
            seating = NewGameForm(request.GET, league=league).seating()
            return render(request, "scores/table/game_new.html#seating", {"seating": seating})
    form = NewGameForm(request.POST or None, league=league)
    # "Record a game played on paper": the same seating and rules, then the game page's form for its final scores.
    paper = (request.POST if request.method == "POST" else request.GET).get("paper") == "1"
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.start_game(
                league=league, seats=data["seats"], rules=data["rules"], teams=data["teams"], first_dealer=data["first_dealer"]
            )
        except rules.RulesError as error:
            add_problems(form, error, fields={"seats": None, "teams": "mode", "dealer": "first_dealer"})
        else:
            for typed, name in form.league_players_typed():  # Typed as new, seated as the player they already are.
                messages.info(request, gettext("“%(typed)s” is the league's player %(name)s.") % {"typed": typed, "name": name})
            return redirect(game.get_absolute_url() + ("?paper=1" if paper else ""))
    context = {"league": league, "membership": membership, "form": form, "rules": form.chosen_rules(), "paper": paper}
    return render(request, "scores/table/game_new.html", context)


@login_required
@require_safe
@vary_on_headers("HX-Request")
@not_found_if_deleted
def game_detail(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The scoreboard, the hand form for scorers, and the hand history of one game."""
    game, membership = game_for(request.user, slug, pk)
    query = GamePageForm(request.GET, game=game)
    if request.htmx and query.chart:
        # The chart catches up after htmx changed the scores (the "scores-changed" event).
        return render(request, "scores/table/game_detail.html#chart", selectors.scoreboard_context(game))
    context = game_context(request, game, membership)
    context["paper_open"] = query.paper_open
    if context["can_score"]:  # Said once, in the scoreboard's notice line: the next action's answer takes it away.
        context["notice"] = " ".join(str(message) for message in messages.get_messages(request))
    if context["form"] is not None:
        # Back from an undo without JavaScript: "Restore" stays while the game is as the undo left it.
        context["restore"] = query.restore_token
        # Back from the auction page: its result fills in pitcher and bid.
        state = context["state"]
        auction = AuctionResultForm(request.GET, table=state.table, dealer=state.next_dealer)
        if not auction.is_valid():
            context["auction_problem"] = auction.errors["auction"][0]
        elif result := auction.cleaned_data["auction"]:
            context["form"].initial.update({"pitcher": result["pitcher"], "bid": result["bid"], "auction": result["text"]})
            context["auction"] = result["bids"]
    return render(request, "scores/table/game_detail.html", context)


def game_context(
    request: HttpRequest,
    game: Game,
    membership: Membership,
    *,
    form: HandForm | None = None,
    notice: str = "",
    taps: dict | None = None,
    rules_form: RulesForm | None = None,
    paper_form: PaperResultForm | None = None,
) -> dict:
    """Everything the game page shows; a fresh hand form for scorers while the game is on (with ``taps`` tapped)."""
    context = selectors.scoreboard_context(game)
    context.update(
        _scoring_context(game, membership, context["state"], context["dealer"], context["next_number"], form=form, taps=taps),
        notice=notice,
        is_owner=membership.allows(Role.OWNER),
        watch_url=request.build_absolute_uri(reverse("scores:watch", args=[game.share_token])) if game.share_token else None,
    )
    if context["can_score"]:
        context["scorer_state"] = _scorer_state(context)
    if context["can_score"] and not context["hands"] and not game.is_finished:
        # Before the first hand, the rules may still change, and a game played on paper may take its result.
        context["rules_form"] = rules_form or RulesForm(defaults=game.rules, prefix="rules")
        context["paper_form"] = paper_form or PaperResultForm(table=context["state"].table, initial={"version": game.version})
    if game.is_finished:
        context["share_text"] = share_text(context)
    return context


def _scorer_state(context: dict) -> dict:
    """For a scorer's page (the watch and public pages never show it): the game as the phone's own scorer needs it,
    to score at once on "Save hand" and while offline (``scorer.scorer_state``)."""
    over = context["game"].is_finished
    return scorer_state(context["state"], context["totals"], last_number=context["last_number"], dealer=context["dealer"], over=over)


def _scoring_context(
    game: Game, membership: Membership, state: selectors.GameState, dealer: str, number: int, *, form=None, taps: dict | None = None
) -> dict:
    """The hand form (a fresh one with a new key unless given, ``taps`` tapped) while the game is on and the user may score."""
    can_score = may_score(game, membership)
    if form is None and can_score and not game.is_finished:
        form = HandForm(table=state.table, dealer=dealer, initial={**(taps or {}), "number": number, "key": uuid.uuid4()})
    return {"membership": membership, "can_score": can_score, "form": form if not game.is_finished else None}


def _game_response(
    request: HtmxHttpRequest,
    game: Game,
    membership: Membership,
    *,
    form=None,
    notice: str = "",
    saved: Hand | None = None,
    restore: str = "",
    taps: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    """After a write: the game fragment for htmx, or back to the game page (POST-redirect-GET).

    ``saved``: the hand just saved, whose changes flash on the scoreboard. ``restore``: a hand was undone, and
    this token (``forms.hands.restore_token``) puts it back: the page offers "Restore". ``taps``: a hand refused
    with ``status``, whose taps the fresh form keeps; the page is answered then, not redirected to.

    A hand saved or undone was stored already: if the game cannot be read again for the answer (the database
    stopped answering, as in a restart, or another request deleted the game since), the answer says what was done all
    the same (``_written_response``)."""
    if request.htmx:
        league = game.league  # Read with the game (game_for): refresh_from_db lets it go, and the database may be gone.
        try:
            game.refresh_from_db()
            context = game_context(request, game, membership, form=form, notice=notice, taps=taps)
            context.update(saved_hand=saved, restore=restore)
            response = render(request, "scores/table/game_detail.html#refreshed", context, status=status)
        except (db.Error, Game.DoesNotExist) as error:
            if saved is None and not restore:
                if isinstance(error, Game.DoesNotExist):  # Refused, and then deleted by another request.
                    return _gone_response(request, game, str(services.GameDeleted()))
                raise  # Nothing was written: the failure is the answer.
            logger.warning("The game could not be read after a write to it; the answer says what was done", exc_info=True)
            if notice:
                done = notice
            else:
                assert saved is not None  # Of the writes, an undo is the one without a hand saved, and it comes with its notice.
                done = gettext("Hand %(number)s was saved.") % {"number": saved.number}
            game.league = league
            return _written_response(request, game, notice=done, restore=restore)
        return trigger_client_event(response, SCORES_CHANGED)
    if form is not None or taps is not None:
        game.refresh_from_db()
        context = game_context(request, game, membership, form=form, notice=notice, taps=taps)
        return render(request, "scores/table/game_detail.html", context, status=status)
    if notice:
        messages.warning(request, notice)
    return redirect(game.get_absolute_url() + ("?" + urlencode({"restore": restore}) if restore else ""))


def _written_response(request: HttpRequest, game: Game, *, notice: str, restore: str) -> HttpResponse:
    """A write stored, its answer made without the database: what was done, "Restore" after an undo (its token is
    made from what the undo returned) and a link to reload the page, in place of the page's notice. The rest of the
    page stays as it was, and whatever is tapped on it next is checked against the game as the server has it."""
    context = {"game": game, "league": game.league, "can_score": True, "notice": notice, "restore": restore}
    return reswap(retarget(render(request, "scores/table/game_detail.html#written", context), "#notices"), "outerHTML")


def _gone_response(request: HtmxHttpRequest, game: Game, gone: str) -> HttpResponse:
    """A write to a game another request deleted meanwhile (``gone`` says so): said on the league's page, as it stands
    without the game (with htmx the browser goes there, as the game's own page is gone)."""
    messages.warning(request, gone)
    if request.htmx:
        return HttpResponseClientRedirect(game.league.get_absolute_url())
    return redirect(game.league)


def _saved_response(
    request: HttpRequest, game: Game, membership: Membership, state: selectors.GameState, saved: Hand, *, form_stays: bool
) -> HttpResponse:
    """A hand saved with htmx: the scoreboard and the new hand's row, not the whole game again.

    ``form_stays``: the form stays on the page and clears its own taps (app.js, on "hand-saved"), as its buttons
    are the same for every hand; the answer brings only the next hand's number and key for it. Otherwise (the game
    is over, or the hand came with its auction) the live part comes back whole, with a fresh form if any, and the
    score chart asks for itself again ("scores-changed"); when the form stays, the answer adds the hand to the chart
    (a segment a line, or the whole chart when its scale moved). ``state`` is the game as read before the hand
    (seats and sides do not change with a hand); the row is added to the history out of band.
    """
    dealer = state.table.left_of(saved.dealer.player.name)
    selectors.with_points([saved], state.table, list(state.sides.values()))
    context = selectors.scoreboard(game, state, saved, saved.number, dealer)
    context.update(saved_hand=saved, undo_oob=True, form_stays=form_stays)
    if form_stays:
        context.update(membership=membership, can_score=True, key=uuid.uuid4())
        try:
            context["chart"], context["steps"] = selectors.score_chart_steps(game, context["sides"])
        except db.Error:  # The hand is stored, and said so: the chart catches up when the page is next loaded.
            logger.warning("The score chart could not be read after a hand was saved", exc_info=True)
    else:
        context.update(_scoring_context(game, membership, state, dealer, saved.number + 1))
    if context["can_score"]:
        context["scorer_state"] = _scorer_state(context)
    response = render(request, "scores/table/game_detail.html#saved", context)
    if form_stays:
        response = reswap(retarget(response, "#scoreboard"), "outerHTML")
    return trigger_client_event(response, HAND_SAVED if form_stays else SCORES_CHANGED)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def hand_create(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Save the next hand. A repeated key stores nothing twice; a hand number already taken is refused."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    try:
        state = selectors.load_game(game, hands=False)  # The table; record_hand reads the rest.
    except Game.DoesNotExist:
        return _gone_response(request, game, str(services.GameDeleted()))
    # Who deals matters only to read an auction sent with the hand: asked for (one query) only then.
    form = HandForm(request.POST, table=state.table, dealer=state.next_dealer if request.POST.get("auction") else None)
    if not form.is_valid():
        return _game_response(request, game, membership, form=form)
    answer = record(game, form, state)
    if answer.kind == "gone":
        return _gone_response(request, game, *answer.messages)
    if answer.problems is not None:
        add_problems(form, answer.problems)
        return _game_response(request, game, membership, form=form)
    if answer.saved is None:
        return _refused_hand(request, game, membership, form, answer)
    saved = answer.saved
    # The page showed the hands up to this one: add its row. The first hand replaces "No hands yet.": the whole part.
    if request.htmx and saved.number == form.cleaned_data["number"] > 1:
        form_stays = not game.is_finished and not form.cleaned_data["auction"]  # record_hand brought the game up to date.
        return _saved_response(request, game, membership, state, saved, form_stays=form_stays)
    return _game_response(request, game, membership, saved=saved)


def _refused_hand(request: HtmxHttpRequest, game: Game, membership: Membership, form: HandForm, answer: HandAnswer) -> HttpResponse:
    """A hand refused with nothing stored: the game as it stands, with why."""
    notice, taps = " ".join(answer.messages), None
    if answer.kind == "conflict":
        # Marked on its own (not inside an f-string), so makemessages finds it.
        stands = gettext("Here is the game as it stands now.")
        notice = f"{notice} {stands}"
    elif answer.status == 409:
        # Sent with another hand's key: the taps stay, for the next hand (its dealer is another, so not the auction).
        taps = HandForm.initial_for(dataclasses.replace(form.to_hand(), bids=None))
    return _game_response(request, game, membership, notice=notice, taps=taps, status=answer.status)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def hand_undo(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Delete the last hand; the number posted guards against undoing twice on a double tap."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    form = UndoForm(request.POST)
    if not form.is_valid():
        return _game_response(request, game, membership, notice=gettext("Nothing was undone: the page did not say which hand."))
    number = form.cleaned_data["number"]
    try:
        undone = services.undo_hand(game=game, number=number)  # Checks, under the game's lock, that it is still the last hand.
    except Gone as gone:
        return _gone_response(request, game, str(gone))
    except Refused as refused:
        return _game_response(request, game, membership, notice=str(refused))
    except rules.RulesError as error:
        return _game_response(request, game, membership, notice=describe_rules_problems(error.problems))
    restore = restore_token(game.pk, game.version, number, undone)  # undo_hand left the game at its new version.
    return _game_response(request, game, membership, notice=gettext("Hand %(number)s was undone.") % {"number": number}, restore=restore)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def hand_restore(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Put back the hand just undone, exactly as it was entered, as the next hand again (scored by the rules again).
    Refused if the game changed since the undo; a second tap stores nothing twice."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    form = RestoreForm(request.POST, game_pk=game.pk)
    if not form.is_valid():
        notice = gettext("Nothing was restored: the page did not say which hand. Reload it.")
        return _game_response(request, game, membership, notice=notice)
    try:
        saved = services.restore_hand(game=game, **form.restore)
    except Gone as gone:
        return _gone_response(request, game, str(gone))
    except Refused as refused:
        return _game_response(request, game, membership, notice=str(refused))
    except rules.RulesError as error:
        return _game_response(request, game, membership, notice=describe_rules_problems(error.problems))
    restored = gettext("Hand %(number)s was restored.") % {"number": saved.number}
    if not request.htmx:
        messages.success(request, restored)
        return redirect(game)
    return _game_response(request, game, membership, notice=restored, saved=saved)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def hand_edit(request: HtmxHttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    """Change an earlier hand; every later total is recomputed, or nothing changes."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    try:
        state = selectors.load_game(game)
    except Game.DoesNotExist:
        return _gone_response(request, game, str(services.GameDeleted()))
    if not 1 <= number <= len(state.hands):
        raise Http404
    before = state.inputs[number - 1]
    form = HandForm(request.POST or None, table=state.table, dealer=before.dealer, initial=HandForm.initial_for(before))
    version = _version_seen(request) if request.method == "POST" else game.version
    if version is None:
        form.add_error(None, gettext("The page did not say which version of the game it showed; reload it and try again."))
    elif request.method == "POST" and form.is_valid() and (done := _edit_hand(request, game, form, before, number, version)):
        return done
    context = {
        "game": game,
        "league": game.league,
        "membership": membership,
        "form": form,
        "number": number,
        "dealer": before.dealer,
        "version": version if version is not None else game.version,
    }
    return render(request, "scores/table/hand_edit.html", context)


def _edit_hand(request: HtmxHttpRequest, game: Game, form: HandForm, before: rules.Hand, number: int, version: int) -> HttpResponse | None:
    """Store the hand as the form has it now, and go back to the game; None when the rules refuse it (the form
    then says why)."""
    try:
        edited = dataclasses.replace(form.to_hand(), dealer=before.dealer)
        if request.POST.get("forget_auction"):  # Else a stored auction pins the pitcher and bid.
            edited = dataclasses.replace(edited, bids=None)
        services.edit_hand(game=game, number=number, hand=edited, version=version)
    except Gone as gone:
        return _gone_response(request, game, str(gone))
    except Refused as refused:
        messages.warning(request, str(refused))
        return redirect(game)
    except rules.RulesError as error:
        add_problems(form, error, after=number)
        return None
    messages.success(request, gettext("Hand %(number)s was changed; the totals after it are recomputed.") % {"number": number})
    return redirect(game)


def _version_seen(request: HttpRequest) -> int | None:
    """The game's version its page showed, as the post says it (``VersionForm``); None when the post does not say,
    and then nothing is changed: another phone may have changed the game meanwhile."""
    seen = VersionForm(request.POST)
    return seen.cleaned_data["version"] if seen.is_valid() else None


def _unversioned(request: HttpRequest, game: Game, *, deleting: bool) -> HttpResponse:
    """A post that did not say which version of the game its page showed: nothing done, as the game's page says."""
    if deleting:
        messages.warning(request, gettext("Nothing was deleted: the page did not say which version of the game it showed."))
    else:
        messages.warning(request, gettext("Nothing was changed: the page did not say which version of the game it showed."))
    return redirect(game)


@login_required
@require_POST
def hand_delete(request: HtmxHttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    """Delete a hand; the later hands move up one and every total is recomputed."""
    game, _membership = game_for(request.user, slug, pk, Role.SCORER)
    if not 1 <= number <= game.hands.count():
        raise Http404
    version = _version_seen(request)
    if version is None:
        return _unversioned(request, game, deleting=True)
    try:
        services.delete_hand(game=game, number=number, version=version)
    except Gone as gone:
        return _gone_response(request, game, str(gone))
    except Refused as refused:
        messages.warning(request, str(refused))
    except rules.RulesError as error:
        for _field, message in describe_problems(error, after=number - 1):
            messages.error(request, message)
    else:
        messages.success(request, gettext("Hand %(number)s was deleted.") % {"number": number})
    return redirect(game)


@login_required
@require_POST
def rematch(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """After a win, the same players in the same seats and the same rules; the deal moves on to the next player."""
    game, _membership = game_for(request.user, slug, pk, Role.SCORER)
    if not game.is_finished:
        messages.warning(request, gettext("A rematch can start only when the game has a winner."))
        return redirect(game)
    if game.round_id is not None:
        messages.warning(
            request, gettext("A card night's table plays the night's rounds: the owner starts the next one on the night's page.")
        )
        return redirect(game)
    try:
        state = selectors.load_game(game)
    except Game.DoesNotExist:
        return _gone_response(request, game, str(services.GameDeleted()))
    table = state.table
    new_game = services.start_game(
        league=game.league,
        seats=list(table.seats),
        rules=table.rules,
        teams=[(team.name, team.players) for team in table.teams],
        first_dealer=state.next_dealer,
    )
    messages.success(request, gettext("Rematch: %(dealer)s deals first.") % {"dealer": state.next_dealer})
    return redirect(new_game)


@login_required
@require_POST
def game_rules(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Change the rules (the target, the house rules, the variant) of a game that has no hand yet."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    form = RulesForm(request.POST, defaults=game.rules, prefix="rules")
    version = _version_seen(request)
    if version is None:
        return _unversioned(request, game, deleting=False)
    if not form.is_valid():
        context = game_context(request, game, membership, rules_form=form)
        return render(request, "scores/table/game_detail.html", context, status=400)
    try:
        services.change_rules(game=game, rules=form.cleaned_data["rules"], version=version)
    except Gone as gone:
        return _gone_response(request, game, str(gone))
    except Refused as refused:
        messages.warning(request, str(refused))
    else:
        messages.success(request, gettext("The game is now played by these rules: %(rules)s.") % {"rules": rules_line(game.rules)})
    return redirect(game)


@login_required
@require_POST
def paper_result(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Record the result of a game played on paper (a card night's table without a phone, say): its final scores and,
    if known, how many hands it had. Refused with the page and its words, nothing changed, for scores the game's
    rules could not end with, or a game that has hands or is finished."""
    game, membership = game_for(request.user, slug, pk, Role.SCORER)
    try:
        table = selectors.load_game(game, hands=False).table
    except Game.DoesNotExist:
        return _gone_response(request, game, str(services.GameDeleted()))
    form = PaperResultForm(request.POST, table=table)
    if form.is_valid():
        try:
            services.record_paper_result(
                game=game, totals=form.totals(), hands=form.cleaned_data["hands"], version=form.cleaned_data["version"]
            )
        except Gone as gone:
            return _gone_response(request, game, str(gone))
        except Refused as refused:
            messages.warning(request, str(refused))
            return redirect(game)
        except rules.RulesError as error:
            add_problems(form, error, fields={**form.problem_fields, "hands": "hands"})
        else:
            messages.success(request, gettext("The result from paper was recorded."))
            return redirect(game)
    game.refresh_from_db()
    context = game_context(request, game, membership, paper_form=form)
    return render(request, "scores/table/game_detail.html", context, status=400)


@login_required
@require_POST
def game_delete(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Delete a game, asked first on its page (an owner's): it leaves the standings, the ratings, the players' pages
    and the exports."""
    game, _membership = game_for(request.user, slug, pk, Role.OWNER)
    version = _version_seen(request)
    if version is None:
        return _unversioned(request, game, deleting=True)
    try:
        services.delete_game(game=game, version=version)
    except Gone as gone:
        return _gone_response(request, game, str(gone))
    except Refused as refused:
        messages.warning(request, str(refused))
        return redirect(game)
    when = date_format(game.played_on, "DATE_FORMAT")
    messages.success(request, gettext("The game of %(date)s (%(code)s) was deleted.") % {"date": when, "code": game.code})
    return redirect(game.league)
