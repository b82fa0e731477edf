"""Game history: downloads (JSON, CSV) for members; uploads for owners, imported in the background (``scores.history.tasks``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.defaultfilters import filesizeformat
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from ..common.refusals import Refused
from ..common.requests import HtmxHttpRequest
from ..leagues.access import league_for
from ..leagues.models import League, Membership, Role
from ..nights import selectors
from ..nights.access import night_for
from ..table.access import game_for
from ..table.models import Game
from . import export, tasks
from .forms import HistoryUploadForm, LeagueExportForm
from .models import ImportJob

# Room for the form's other fields and the multipart boundaries around the file, in a request's length.
FORM_OVERHEAD = 64 * 1024


class LimitedUploadHandler(FileUploadHandler):
    """Stops reading an upload as soon as the file passes the limit, so no more of it is read or kept."""

    def __init__(self, request: HttpRequest, limit: int) -> None:
        super().__init__(request)
        self.limit = limit
        self.cut_off = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start + len(raw_data) > self.limit:
            self.cut_off = True
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # The next handler (memory or temporary file) makes the file.


def _download(
    games: QuerySet[Game], *, league: League, fmt: str, filename: str, standings: bool, seasons: bool = False
) -> StreamingHttpResponse:
    if fmt == "json":
        text = export.export_json(games, league_name=league.name, seasons=seasons)
        response = StreamingHttpResponse(text, content_type="application/json; charset=utf-8")
    else:
        zipped = export.export_csv_zip(games, league=league if standings else None, seasons=seasons)
        response = StreamingHttpResponse(zipped, content_type="application/zip")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{filename}.{'json' if fmt == 'json' else 'zip'}"
    )
    return response


@login_required
@require_safe
def league_export(request: HttpRequest, slug: str, fmt: str) -> StreamingHttpResponse:
    """Every game of the league, as the history file (JSON) or a zip of CSV files; with ``?seasons=yes``, each game's
    season too, so that a league moved by file keeps them."""
    league, _membership = league_for(request.user, slug)
    form = LeagueExportForm(request.GET)
    seasons = form.is_valid() and form.cleaned_data["seasons"]  # A checkbox's field: every value is yes or no.
    return _download(league.games.all(), league=league, fmt=fmt, filename=f"{league.slug}-history", standings=True, seasons=seasons)


@login_required
@require_safe
def game_export(request: HttpRequest, slug: str, pk: int, fmt: str) -> StreamingHttpResponse:
    """One game, as the history file (JSON) or a zip of CSV files."""
    game, _membership = game_for(request.user, slug, pk)
    name = f"{game.league.slug}-{slugify(game.code) or game.pk}"
    return _download(Game.objects.filter(pk=game.pk), league=game.league, fmt=fmt, filename=name, standings=False)


@login_required
@require_safe
def night_export(request: HttpRequest, slug: str, pk: int, fmt: str) -> StreamingHttpResponse:
    """A card night's games, every table of every round, as the history file (JSON) or a zip of CSV files."""
    night, _membership = night_for(request.user, slug, pk)
    name = f"{night.league.slug}-{slugify(night.name) or 'night'}-{night.played_on.isoformat()}"
    return _download(selectors.night_games(night), league=night.league, fmt=fmt, filename=name, standings=False)


@csrf_exempt  # The size is checked before anything reads the body; the CSRF check (which reads it) follows.
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def league_import(request: HttpRequest, slug: str) -> HttpResponse:
    """The owner's upload form; an upload becomes a background import, shown with its progress."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    if request.method == "POST":
        limit = settings.IMPORT_MAX_UPLOAD_SIZE
        if int(request.META.get("CONTENT_LENGTH") or 0) > limit + FORM_OVERHEAD:
            # Refused from the header alone, before a byte of the body is read; nothing changes, so no CSRF check.
            form = HistoryUploadForm(cut_off=True)
            context = {"league": league, "membership": membership, "form": form, "too_big": filesizeformat(limit)}
            return render(request, "scores/history/history_import.html", context, status=413)
        request.upload_handlers.insert(0, LimitedUploadHandler(request, limit))
    return _league_import(request, league, membership)


@csrf_protect
def _league_import(request: HttpRequest, league: League, membership: Membership) -> HttpResponse:
    job = None
    if request.method == "POST":
        handler = request.upload_handlers[0]
        assert isinstance(handler, LimitedUploadHandler)  # league_import puts it first for a post.
        form = HistoryUploadForm(request.POST, request.FILES, cut_off=handler.cut_off)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            upload.seek(0)
            try:
                job = tasks.queue_import(
                    league=league, user=request.user, filename=upload.name[:255], language=get_language(), source=upload.read()
                )
            except Refused as refusal:
                form.add_error(None, str(refusal))
                context = {"league": league, "membership": membership, "form": form}
                return render(request, "scores/history/history_import.html", context, status=429)
            form = HistoryUploadForm()
    else:
        form = HistoryUploadForm()
    context = {"league": league, "membership": membership, "form": form, "job": job}
    failed = form.errors or (job is not None and job.status == ImportJob.Status.FAILED)
    return render(request, "scores/history/history_import.html", context, status=400 if failed else 200)


@login_required
@require_safe
@vary_on_headers("HX-Request")
def import_job(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    """An import's progress, then what it imported and skipped, or every problem found; htmx polls the fragment."""
    league, membership = league_for(request.user, slug, Role.OWNER)
    job = get_object_or_404(ImportJob.objects.defer("source"), league=league, pk=pk)
    job.league = league  # For its URL, without reading the league again.
    template = "scores/history/history_import.html#job" if request.htmx else "scores/history/history_import.html"
    context = {"league": league, "membership": membership, "form": HistoryUploadForm(), "job": job}
    return render(request, template, context)
