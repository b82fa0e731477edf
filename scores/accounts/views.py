"""Accounts: signing up, password-reset mails within their limit (log-in itself is Django's, limited by django-axes), the language."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods

from . import language, rate_limit, services
from .forms import SignupForm
from .login_limit import client_address


def _next_url(request: HttpRequest) -> str:
    """Where to go after signing up (an invite link, say), if it is on this site."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    return url if url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}, require_https=request.is_secure()) else ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Make an account and log in with it."""
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url or "scores:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        limits = {f"signup:address:{client_address(request)}": rate_limit.SIGNUPS_PER_ADDRESS}
        if email := form.cleaned_data["email"]:
            limits[f"signup:email:{email.casefold()}"] = rate_limit.SIGNUPS_PER_EMAIL
        if not rate_limit.allow(limits):
            form.add_error(None, _("Too many sign-ups from your network. Try again in an hour."))
            return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=429)
        data = form.cleaned_data
        user = services.create_account(username=data["username"], email=data["email"], password=data["password1"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(user)s. Your account is ready.") % {"user": user.get_username()})
        return redirect(next_url or "scores:home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=400 if form.errors else 200)


class LimitedPasswordResetView(PasswordResetView):
    """Django's password-reset page, sending at most so many mails an hour per address and per e-mail address."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        limits = {
            f"reset:address:{client_address(self.request)}": rate_limit.RESETS_PER_ADDRESS,
            f"reset:email:{form.cleaned_data['email'].casefold()}": rate_limit.RESETS_PER_EMAIL,
        }
        if not rate_limit.allow(limits):
            form.add_error(None, _("Too many password-reset requests. Try again in an hour."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


password_reset = LimitedPasswordResetView.as_view()


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (the cookie, kept LANGUAGE_COOKIE_AGE), and for a signed-in player the account keeps it too."""
    response = i18n.set_language(request)
    cookie = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie is not None and request.user.is_authenticated and cookie.value in dict(settings.LANGUAGES):
        language.remember(user=request.user, language=cookie.value)
    return response
