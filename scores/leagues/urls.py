"""A league, its settings (the public link on or off), its members and invites."""

from django.urls import path

from ..common import converters  # noqa: F401  (registers <id:...>)
from .views import leagues, members

urlpatterns = [
    path("leagues/new/", leagues.league_new, name="league_new"),
    path("leagues/<slug:slug>/", leagues.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/games/", leagues.game_list, name="game_list"),
    path("leagues/<slug:slug>/settings/", leagues.league_settings, name="league_settings"),
    path("leagues/<slug:slug>/settings/public-link/", leagues.league_public_link, name="league_public_link"),
    path("leagues/<slug:slug>/delete/", leagues.league_delete, name="league_delete"),
    path("leagues/<slug:slug>/members/", members.member_list, name="member_list"),
    path("leagues/<slug:slug>/members/<id:pk>/role/", members.member_role, name="member_role"),
    path("leagues/<slug:slug>/members/<id:pk>/remove/", members.member_remove, name="member_remove"),
    path("leagues/<slug:slug>/invites/new/", members.invite_new, name="invite_new"),
    path("leagues/<slug:slug>/invites/<id:pk>/revoke/", members.invite_revoke, name="invite_revoke"),
    path("invite/<slug:token>/", members.invite_accept, name="invite_accept"),
]
