from django.urls import path

from . import views

app_name = "scores"
urlpatterns = [
    path("", views.home, name="home"),
    path("leagues/<slug:slug>/", views.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/games/<int:pk>/", views.game_detail, name="game_detail"),
]
