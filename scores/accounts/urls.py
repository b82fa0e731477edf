"""Sign-up, and the installable app: its manifest, service worker and the scripts' texts, each in the page's language."""

from django.urls import path

from ..common import converters  # noqa: F401  (registers <id:...>)
from . import install
from . import views as accounts

urlpatterns = [
    path("manifest/<slug:lang>.webmanifest", install.manifest, name="manifest"),  # In the page's language.
    path("sw.js", install.service_worker, name="service_worker"),
    path("jsi18n/<slug:lang>/", install.javascript_catalog, name="javascript_catalog"),  # The scripts' texts.
    path("accounts/signup/", accounts.signup, name="signup"),
]
