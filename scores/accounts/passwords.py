"""A password validator beside Django's: too few different characters ("aaaaaaaaaaaa" is 12 long and common in no list)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import ngettext


class DistinctCharactersValidator:
    """Refuse a password made of fewer than ``min_distinct`` different characters."""

    def __init__(self, min_distinct: int = 5) -> None:
        self.min_distinct = min_distinct

    def validate(self, password: str, user=None) -> None:
        if len(set(password)) < self.min_distinct:
            raise ValidationError(self.get_help_text(), code="password_too_few_distinct")

    def get_help_text(self) -> str:
        return ngettext(
            "Your password must use at least %(count)d different character.",
            "Your password must use at least %(count)d different characters.",
            self.min_distinct,
        ) % {"count": self.min_distinct}
