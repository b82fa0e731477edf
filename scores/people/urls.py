"""The league's people: guests, merges, claims, renames and archiving."""

from django.urls import path

from ..common import converters  # noqa: F401  (registers <id:...>)
from . import views as people

urlpatterns = [
    path("leagues/<slug:slug>/people/", people.people, name="people"),
    path("leagues/<slug:slug>/people/guests/new/", people.guest_new, name="guest_new"),
    path("leagues/<slug:slug>/people/merge/", people.merge, name="merge"),
    path("leagues/<slug:slug>/people/claims/<id:pk>/", people.claim_decide, name="claim_decide"),
    path("leagues/<slug:slug>/players/<id:pk>/rename/", people.player_rename, name="player_rename"),
    path("leagues/<slug:slug>/players/<id:pk>/archive/", people.player_archive, name="player_archive"),
    path("leagues/<slug:slug>/players/<id:pk>/claim/", people.player_claim, name="player_claim"),
]
