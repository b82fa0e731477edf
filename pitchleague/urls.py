from django.contrib import admin
from django.urls import include, path

from scores.account_views import login_view

from .health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", login_view, name="login"),  # Django's, with the login limit; before the rest of auth.urls.
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scores.urls")),
]
