"""The base of every form of the app: each area's forms are ``ShortRefusals`` forms."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django import forms
from django.core.exceptions import ValidationError

from ..engine.problems import excerpt

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class ShortRefusals(forms.BaseForm):
    """A form whose refusals quote at most an excerpt of a value they refused: Django's choice fields quote the whole
    value posted ("Select a valid choice. … is not one of the available choices."), which a crafted post makes
    megabytes long."""

    def add_error(
        self,
        field: str | None,
        error: ValidationError
        | StrOrPromise
        | Sequence[ValidationError | StrOrPromise]
        | Mapping[str, ValidationError | StrOrPromise | Sequence[ValidationError | StrOrPromise]],
    ) -> None:
        if isinstance(error, ValidationError):
            for each in error.error_list if hasattr(error, "error_list") else [e for errors in error.error_dict.values() for e in errors]:
                if isinstance(each.params, dict):
                    each.params = {key: excerpt(value) if isinstance(value, str) else value for key, value in each.params.items()}
        # BaseForm.add_error's stubs are overloads, each for one pairing of field and error, so a union passed on matches none.
        super().add_error(field, error)  # type: ignore[arg-type]
