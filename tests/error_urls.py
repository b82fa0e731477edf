"""The app's URLs and three views that fail on purpose, so the tests can meet the 400, 403 and 500 pages."""

from __future__ import annotations

from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def bad_request(request: HttpRequest) -> HttpResponse:
    raise BadRequest("a request the view cannot read, for the test of the 400 page")


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a view that fails, for the test of the 500 page")


urlpatterns = [
    path("test-forbidden/", forbidden),
    path("test-broken/", broken),
    path("test-bad-request/", bad_request),
    path("", include("pitchleague.urls")),
]
