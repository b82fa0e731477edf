"""A player's page, the seasons, and the league's public link (its standings and games, read-only)."""

from django.urls import path

from ..common import converters  # noqa: F401  (registers <id:...>)
from .views import players, public, seasons

urlpatterns = [
    path("leagues/<slug:slug>/players/<id:pk>/", players.player_detail, name="player_detail"),
    path("leagues/<slug:slug>/seasons/", seasons.season_list, name="season_list"),
    path("leagues/<slug:slug>/seasons/<id:pk>/rename/", seasons.season_rename, name="season_rename"),
    path("p/<slug:token>/", public.public_league, name="public_league"),
    path("p/<slug:token>/games/<id:pk>/", public.public_game, name="public_game"),
]
