"""The table's addresses: a game, its hands, the auction, the watch link, a phone's offline queue; the home and Rules
pages. The live score's poll first, then the hand form: the requests phones make most often."""

from django.urls import path

from ..common import converters  # noqa: F401  (registers <id:...>)
from .views import auction, games, offline, pages, watch

urlpatterns = [
    path("watch/<slug:token>/", watch.watch, name="watch"),
    path("leagues/<slug:slug>/games/<id:pk>/hands/", games.hand_create, name="hand_create"),
    path("", pages.home, name="home"),
    path("leagues/<slug:slug>/games/new/", games.game_new, name="game_new"),
    path("leagues/<slug:slug>/games/<id:pk>/", games.game_detail, name="game_detail"),
    path("leagues/<slug:slug>/games/<id:pk>/hands/sync/", offline.hand_sync, name="hand_sync"),  # A phone's queue, offline.
    path("leagues/<slug:slug>/games/<id:pk>/hands/undo/", games.hand_undo, name="hand_undo"),
    path("leagues/<slug:slug>/games/<id:pk>/hands/restore/", games.hand_restore, name="hand_restore"),
    path("leagues/<slug:slug>/games/<id:pk>/hands/<id:number>/edit/", games.hand_edit, name="hand_edit"),
    path("leagues/<slug:slug>/games/<id:pk>/hands/<id:number>/delete/", games.hand_delete, name="hand_delete"),
    path("leagues/<slug:slug>/games/<id:pk>/auction/", auction.auction, name="auction"),
    path("leagues/<slug:slug>/games/<id:pk>/watch-link/", watch.game_watch_link, name="game_watch_link"),
    path("rules/", pages.rules_page, name="rules"),
    path("leagues/<slug:slug>/games/<id:pk>/watch-qr/<slug:token>.svg", watch.watch_qr, name="watch_qr"),
    path("leagues/<slug:slug>/games/<id:pk>/rematch/", games.rematch, name="rematch"),
    path("leagues/<slug:slug>/games/<id:pk>/rules/", games.game_rules, name="game_rules"),
    path("leagues/<slug:slug>/games/<id:pk>/delete/", games.game_delete, name="game_delete"),
    path("leagues/<slug:slug>/games/<id:pk>/paper/", games.paper_result, name="paper_result"),
]
