from django.urls import path

from . import account_views, history_views, install_views, league_views, offline, share_views, views

app_name = "scores"
# Tokens are secrets.token_urlsafe: the slug alphabet exactly, so nothing else (a NUL byte, say) reaches a query.
urlpatterns = [
    # The live score's poll first, then the hand form: the requests phones make most often.
    path("watch/<slug:token>/", views.watch, name="watch"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/", views.hand_create, name="hand_create"),
    path("", views.home, name="home"),
    path("leagues/<slug:slug>/games/new/", views.game_new, name="game_new"),
    path("leagues/<slug:slug>/games/<int:pk>/", views.game_detail, name="game_detail"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/sync/", offline.hand_sync, name="hand_sync"),  # A phone's queue (issue 14).
    path("leagues/<slug:slug>/games/<int:pk>/hands/undo/", views.hand_undo, name="hand_undo"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/<int:number>/edit/", views.hand_edit, name="hand_edit"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/<int:number>/delete/", views.hand_delete, name="hand_delete"),
    path("leagues/<slug:slug>/games/<int:pk>/auction/", views.auction, name="auction"),
    path("leagues/<slug:slug>/games/<int:pk>/watch-link/", views.game_watch_link, name="game_watch_link"),
    path("rules/", views.rules_page, name="rules"),
    # At the table on a phone (issue 13): installable, a QR code of the watch link, a rematch.
    path("manifest.webmanifest", install_views.manifest, name="manifest"),
    path("sw.js", install_views.service_worker, name="service_worker"),
    path("leagues/<slug:slug>/games/<int:pk>/watch-qr.svg", share_views.watch_qr, name="watch_qr"),
    path("leagues/<slug:slug>/games/<int:pk>/rematch/", share_views.rematch, name="rematch"),
    # Accounts, leagues, members and the public link (scores.account_views, scores.league_views).
    path("accounts/signup/", account_views.signup, name="signup"),
    path("leagues/new/", league_views.league_new, name="league_new"),
    path("leagues/<slug:slug>/", league_views.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/games/", league_views.game_list, name="game_list"),
    path("leagues/<slug:slug>/players/<int:pk>/", league_views.player_detail, name="player_detail"),
    path("leagues/<slug:slug>/settings/", league_views.league_settings, name="league_settings"),
    path("leagues/<slug:slug>/settings/public-link/", league_views.league_public_link, name="league_public_link"),
    path("leagues/<slug:slug>/delete/", league_views.league_delete, name="league_delete"),
    path("leagues/<slug:slug>/members/", league_views.member_list, name="member_list"),
    path("leagues/<slug:slug>/members/<int:pk>/role/", league_views.member_role, name="member_role"),
    path("leagues/<slug:slug>/members/<int:pk>/remove/", league_views.member_remove, name="member_remove"),
    path("leagues/<slug:slug>/invites/new/", league_views.invite_new, name="invite_new"),
    path("leagues/<slug:slug>/invites/<int:pk>/revoke/", league_views.invite_revoke, name="invite_revoke"),
    path("invite/<slug:token>/", league_views.invite_accept, name="invite_accept"),
    path("p/<slug:token>/", league_views.public_league, name="public_league"),
    path("p/<slug:token>/games/<int:pk>/", league_views.public_game, name="public_game"),
    # Game history (issue 5): downloads for members, import for owners.
    path("leagues/<slug:slug>/history.json", history_views.league_export, {"fmt": "json"}, name="league_export_json"),
    path("leagues/<slug:slug>/history.zip", history_views.league_export, {"fmt": "csv"}, name="league_export_csv"),
    path("leagues/<slug:slug>/games/<int:pk>/history.json", history_views.game_export, {"fmt": "json"}, name="game_export_json"),
    path("leagues/<slug:slug>/games/<int:pk>/history.zip", history_views.game_export, {"fmt": "csv"}, name="game_export_csv"),
    path("leagues/<slug:slug>/import/", history_views.league_import, name="league_import"),
]
