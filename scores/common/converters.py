"""The path converter every id or hand number in an address goes through (``<id:...>``), registered on import."""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    """A row's id or a hand's number: a positive number the database can hold, so no view checks the range again."""

    regex = "[1-9][0-9]{0,18}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number >= 2**63:
            raise ValueError(value)  # No such row: the address does not match, so Django answers 404.
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
