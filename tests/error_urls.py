"""The app's URLs and two views that fail on purpose, so the tests can meet the 403 and 500 pages."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a view that fails, for the test of the 500 page")


urlpatterns = [
    path("test-forbidden/", forbidden),
    path("test-broken/", broken),
    path("", include("pitchleague.urls")),
]
