"""The home page, the Rules page, and the page for a refused CSRF check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ...engine import rules
from ...engine.problems import variant_name
from ...leagues.models import League
from ..forms.games import point_label


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The leagues the user belongs to."""
    leagues = League.objects.for_user(request.user) if request.user.is_authenticated else League.objects.none()
    return render(request, "scores/table/home.html", {"leagues": leagues})


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    """The rules the app keeps score by, in plain words, for anyone (no account needed), with each variant's points
    and figures as the rules engine has them."""
    variants = [
        {
            "name": variant_name(variant.name),
            "points": [point_label(rules.CATALOGUE[key]) for key in variant.points],
            "total": variant.total,
            "target": variant.target,
            "min_bid": variant.min_bid,
        }
        for variant in rules.VARIANTS.values()
    ]
    return render(request, "scores/table/rules.html", {"variants": variants})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A post refused by the CSRF check (an old form, cookies off): the app's page, in the player's language."""
    return render(request, "403_csrf.html", status=403)
