"""The language choice, kept for a year in the browser's cookie and on the account of a signed-in player.

The switcher posts to ``views.accounts.set_language`` (Django's view, which sets the cookie), and that view keeps
the choice on the account. When the player logs in on another phone, ``apply_on_login`` (connected to
``user_logged_in``) reads it once and ``AccountLanguageMiddleware`` sets the cookie on the log-in's response: no
query on any other request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .models import AccountLanguage

_ATTRIBUTE = "_account_language"


def remember(*, user, language: str) -> None:
    """Keep ``language`` (a code the switcher accepted) on the user's account."""
    AccountLanguage.objects.update_or_create(user=user, defaults={"language": language})


def set_cookie(response: HttpResponse, language: str) -> None:
    """The language cookie, set exactly as Django's set_language sets it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def apply_on_login(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """On log-in, speak the account's language from this response on (a receiver of ``user_logged_in``)."""
    if request is None:
        return
    language = AccountLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    if language in dict(settings.LANGUAGES):  # A language the app no longer speaks is ignored.
        translation.activate(language)
        request.LANGUAGE_CODE = language
        setattr(request, _ATTRIBUTE, language)


class AccountLanguageMiddleware:
    """Sets the language cookie on the response to a log-in that found a language on the account."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if language := getattr(request, _ATTRIBUTE, None):
            set_cookie(response, language)
        return response
