"""Uploading a history file to import."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from ..common.forms import ShortRefusals
from . import document


class HistoryUploadForm(ShortRefusals, forms.Form):
    file = forms.FileField(label=_("History file (JSON)"))

    def __init__(self, *args, cut_off: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.limit = settings.IMPORT_MAX_UPLOAD_SIZE
        self.cut_off = cut_off
        self.fields["file"].required = not cut_off  # A file cut off at the limit is not there: say why instead.
        self.fields["file"].help_text = _(
            "A file in the Pitch history format, at most %(limit)s. Games the league already has are skipped."
        ) % {"limit": filesizeformat(self.limit)}

    def clean_file(self) -> UploadedFile:
        """The file, if it is within the limit and is JSON text; the games in it are checked by the import task."""
        upload = self.cleaned_data["file"]
        if self.cut_off or upload.size > self.limit:
            raise ValidationError(_("The file is larger than the limit of %(limit)s."), params={"limit": filesizeformat(self.limit)})
        try:
            document.load_json(upload.read(), objects=False)  # The web worker only checks it is JSON; the task reads it.
        except document.HistoryError as error:
            raise ValidationError([str(problem) for problem in error.problems]) from error
        return upload


class LeagueExportForm(ShortRefusals, forms.Form):
    """A league's download (``?seasons=``): with each game's season, a key of this app's beside the exchange format."""

    seasons = forms.BooleanField(required=False)
