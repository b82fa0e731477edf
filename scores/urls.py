from django.urls import path

from . import history_views, views

app_name = "scores"
urlpatterns = [
    path("", views.home, name="home"),
    path("leagues/<slug:slug>/", views.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/games/new/", views.game_new, name="game_new"),
    path("leagues/<slug:slug>/games/<int:pk>/", views.game_detail, name="game_detail"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/", views.hand_create, name="hand_create"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/undo/", views.hand_undo, name="hand_undo"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/<int:number>/edit/", views.hand_edit, name="hand_edit"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/<int:number>/delete/", views.hand_delete, name="hand_delete"),
    path("leagues/<slug:slug>/games/<int:pk>/auction/", views.auction, name="auction"),
    path("watch/<str:token>/", views.watch, name="watch"),
    # Game history (issue 5): downloads for members, import for owners.
    path("leagues/<slug:slug>/history.json", history_views.league_export, {"fmt": "json"}, name="league_export_json"),
    path("leagues/<slug:slug>/history.zip", history_views.league_export, {"fmt": "csv"}, name="league_export_csv"),
    path("leagues/<slug:slug>/games/<int:pk>/history.json", history_views.game_export, {"fmt": "json"}, name="game_export_json"),
    path("leagues/<slug:slug>/games/<int:pk>/history.zip", history_views.game_export, {"fmt": "csv"}, name="game_export_csv"),
    path("leagues/<slug:slug>/import/", history_views.league_import, name="league_import"),
]
