from django.urls import path

from . import views

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
]
