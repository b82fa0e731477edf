"""Card nights and their rounds."""

from django.urls import path

from ..common import converters  # noqa: F401  (registers <id:...>)
from . import views as nights

urlpatterns = [
    path("leagues/<slug:slug>/nights/", nights.night_list, name="night_list"),
    path("leagues/<slug:slug>/nights/new/", nights.night_new, name="night_new"),
    path("leagues/<slug:slug>/nights/<id:pk>/", nights.night_detail, name="night_detail"),
    path("leagues/<slug:slug>/nights/<id:pk>/screen/", nights.night_screen, name="night_screen"),
    path("leagues/<slug:slug>/nights/<id:pk>/rounds/new/", nights.round_new, name="round_new"),
    path("leagues/<slug:slug>/nights/<id:pk>/rounds/<id:number>/print/", nights.round_print, name="round_print"),
    path("leagues/<slug:slug>/nights/<id:pk>/tables/<id:game_pk>/scorer/", nights.table_scorer, name="table_scorer"),
]
