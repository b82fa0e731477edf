"""The phone sizes the browser tests run at, and the fixtures that give a test module them."""

from __future__ import annotations

import pytest

SIZES = {"390x844": (390, 844), "320x568": (320, 568)}


def phone_fixtures(*, service_workers: bool = False):
    """A ``size`` fixture over the phone sizes and ``browser_context_args`` with its viewport (and, when asked, the
    service worker on, as on a real phone: conftest blocks it for the tests that hold requests). A test module
    assigns both: ``size, browser_context_args = phone_fixtures()``."""

    @pytest.fixture(params=SIZES.values(), ids=SIZES.keys())
    def size(request) -> tuple[int, int]:
        return request.param

    @pytest.fixture
    def browser_context_args(browser_context_args, size):
        viewport = {"viewport": {"width": size[0], "height": size[1]}}
        return {**browser_context_args, **viewport, **({"service_workers": "allow"} if service_workers else {})}

    return size, browser_context_args
