"""Game history on the web: JSON and CSV downloads for members, the import form for owners."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from . import services
from .history import document, export
from .models import Game, League, Role
from .views import _get_game_for, _get_league_for

MAX_UPLOAD_SIZE = 5 * 1024 * 1024


class HistoryUploadForm(forms.Form):
    file = forms.FileField(
        label=_("History file (JSON)"),
        help_text=_("A file in the Pitch history format, at most 5 MB. Games the league already has are skipped."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_SIZE:
            raise ValidationError(
                _("The file is %(size)s; the limit is %(limit)s."),
                params={"size": filesizeformat(upload.size), "limit": filesizeformat(MAX_UPLOAD_SIZE)},
            )
        return upload


def _download(games: QuerySet[Game], *, league: League, fmt: str, filename: str, standings: bool) -> StreamingHttpResponse:
    if fmt == "json":
        response = StreamingHttpResponse(export.export_json(games, league_name=league.name), content_type="application/json; charset=utf-8")
    else:
        response = StreamingHttpResponse(export.export_csv_zip(games, league=league if standings else None), content_type="application/zip")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{filename}.{'json' if fmt == 'json' else 'zip'}"
    )
    return response


@login_required
@require_safe
def league_export(request: HttpRequest, slug: str, fmt: str) -> StreamingHttpResponse:
    """Every game of the league, as the history file (JSON) or a zip of CSV files."""
    league, _membership = _get_league_for(request.user, slug)
    return _download(league.games.all(), league=league, fmt=fmt, filename=f"{league.slug}-history", standings=True)


@login_required
@require_safe
def game_export(request: HttpRequest, slug: str, pk: int, fmt: str) -> StreamingHttpResponse:
    """One game, as the history file (JSON) or a zip of CSV files."""
    game, _membership = _get_game_for(request.user, slug, pk)
    name = f"{game.league.slug}-{slugify(game.code) or game.pk}"
    return _download(Game.objects.filter(pk=game.pk), league=game.league, fmt=fmt, filename=name, standings=False)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def league_import(request: HttpRequest, slug: str) -> HttpResponse:
    """The owner's upload form; after an upload, what was imported and skipped, or every problem found."""
    league, membership = _get_league_for(request.user, slug, Role.OWNER)
    report, problems = None, []
    if request.method == "POST":
        form = HistoryUploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                report = services.import_history(league=league, source=form.cleaned_data["file"].read())
            except document.HistoryError as error:
                problems = [str(problem) for problem in error.problems]
            else:
                form = HistoryUploadForm()
    else:
        form = HistoryUploadForm()
    context = {"league": league, "membership": membership, "form": form, "report": report, "problems": problems}
    return render(request, "scores/history_import.html", context, status=400 if problems or form.errors else 200)
