"""Game history: downloads for members, import for owners."""

from django.urls import path

from ..common import converters  # noqa: F401  (registers <id:...>)
from . import views as history

urlpatterns = [
    path("leagues/<slug:slug>/history.json", history.league_export, {"fmt": "json"}, name="league_export_json"),
    path("leagues/<slug:slug>/history.zip", history.league_export, {"fmt": "csv"}, name="league_export_csv"),
    path("leagues/<slug:slug>/games/<id:pk>/history.json", history.game_export, {"fmt": "json"}, name="game_export_json"),
    path("leagues/<slug:slug>/games/<id:pk>/history.zip", history.game_export, {"fmt": "csv"}, name="game_export_csv"),
    path("leagues/<slug:slug>/nights/<id:pk>/history.json", history.night_export, {"fmt": "json"}, name="night_export_json"),
    path("leagues/<slug:slug>/nights/<id:pk>/history.zip", history.night_export, {"fmt": "csv"}, name="night_export_csv"),
    path("leagues/<slug:slug>/import/", history.league_import, name="league_import"),
    path("leagues/<slug:slug>/import/<id:pk>/", history.import_job, name="import_job"),
]
