"""Signing up; logging in and out and passwords are Django's own views (``django.contrib.auth.urls``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .league_forms import LimitedAuthenticationForm, SignupForm


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
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(user)s. Your account is ready.") % {"user": user.get_username()})
        return redirect(next_url or "scores:home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=400 if form.errors else 200)


class LimitedLoginView(LoginView):
    """Django's log-in page with the login limit: a refused attempt is answered 429 with the form's message."""

    authentication_form = LimitedAuthenticationForm

    def form_invalid(self, form: LimitedAuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        wait = getattr(form, "retry_after", None)
        if wait is not None:
            response.status_code = 429
            response["Retry-After"] = str(max(1, int(wait.total_seconds())))
        return response


login_view = LimitedLoginView.as_view()
