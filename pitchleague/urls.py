from django.contrib import admin
from django.urls import include, path

from scores.views.accounts import password_reset

from .health import healthz

# The app's own addresses come first: the watch link's poll and the hand form are the requests made most often,
# and the resolver tries the patterns in order. None of the app's patterns overlaps the ones after it.
urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", include("scores.urls")),
    path("admin/", admin.site.urls),
    # Django's, sending a limited number of mails; before the rest of auth.urls. Logging in is limited by axes.
    path("accounts/password_reset/", password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
