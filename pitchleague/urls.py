from django.contrib import admin
from django.urls import include, path

from scores.accounts.views import password_reset, set_language

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
    # Django's set_language, which also keeps the choice on a signed-in player's account.
    path("i18n/setlang/", set_language, name="set_language"),
]
