"""The 405 page: Django answers a request its view does not take (``require_POST``, ``require_safe``) with an empty
``HttpResponseNotAllowed`` and has no template hook for it, unlike 400, 403, 404 and 500."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.loader import render_to_string


class MethodNotAllowedPage:
    """Puts templates/405.html, in the request's language, into an empty 405; the status and Allow header stay."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if isinstance(response, HttpResponseNotAllowed) and not response.content:
            response.content = render_to_string("405.html")
            response["Content-Type"] = "text/html; charset=utf-8"
        return response
