"""The health check a load balancer polls: the app answers and its database does."""

from __future__ import annotations

import logging

from django.db import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scores.leagues.models import League

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers a query, 503 otherwise."""
    try:
        League.objects.exists()  # The smallest query of the app's own tables.
    except DatabaseError:
        logger.exception("health check: the database did not answer")
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ok"})
