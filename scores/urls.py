from django.urls import path

from .views import accounts, auction, games, history, install, leagues, members, offline, pages, players, public, watch

app_name = "scores"
# Tokens are secrets.token_urlsafe: the slug alphabet exactly, so nothing else (a NUL byte, say) reaches a query.
urlpatterns = [
    # The live score's poll first, then the hand form: the requests phones make most often.
    path("watch/<slug:token>/", watch.watch, name="watch"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/", games.hand_create, name="hand_create"),
    path("", pages.home, name="home"),
    path("leagues/<slug:slug>/games/new/", games.game_new, name="game_new"),
    path("leagues/<slug:slug>/games/<int:pk>/", games.game_detail, name="game_detail"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/sync/", offline.hand_sync, name="hand_sync"),  # A phone's queue, offline.
    path("leagues/<slug:slug>/games/<int:pk>/hands/undo/", games.hand_undo, name="hand_undo"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/restore/", games.hand_restore, name="hand_restore"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/<int:number>/edit/", games.hand_edit, name="hand_edit"),
    path("leagues/<slug:slug>/games/<int:pk>/hands/<int:number>/delete/", games.hand_delete, name="hand_delete"),
    path("leagues/<slug:slug>/games/<int:pk>/auction/", auction.auction, name="auction"),
    path("leagues/<slug:slug>/games/<int:pk>/watch-link/", watch.game_watch_link, name="game_watch_link"),
    path("rules/", pages.rules_page, name="rules"),
    # At the table on a phone: installable, a QR code of the watch link, a rematch.
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("leagues/<slug:slug>/games/<int:pk>/watch-qr.svg", watch.watch_qr, name="watch_qr"),
    path("leagues/<slug:slug>/games/<int:pk>/rematch/", games.rematch, name="rematch"),
    # Accounts, leagues, members and the public link.
    path("accounts/signup/", accounts.signup, name="signup"),
    path("leagues/new/", leagues.league_new, name="league_new"),
    path("leagues/<slug:slug>/", leagues.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/games/", leagues.game_list, name="game_list"),
    path("leagues/<slug:slug>/players/<int:pk>/", players.player_detail, name="player_detail"),
    path("leagues/<slug:slug>/settings/", leagues.league_settings, name="league_settings"),
    path("leagues/<slug:slug>/settings/public-link/", leagues.league_public_link, name="league_public_link"),
    path("leagues/<slug:slug>/delete/", leagues.league_delete, name="league_delete"),
    path("leagues/<slug:slug>/members/", members.member_list, name="member_list"),
    path("leagues/<slug:slug>/members/<int:pk>/role/", members.member_role, name="member_role"),
    path("leagues/<slug:slug>/members/<int:pk>/remove/", members.member_remove, name="member_remove"),
    path("leagues/<slug:slug>/invites/new/", members.invite_new, name="invite_new"),
    path("leagues/<slug:slug>/invites/<int:pk>/revoke/", members.invite_revoke, name="invite_revoke"),
    path("invite/<slug:token>/", members.invite_accept, name="invite_accept"),
    path("p/<slug:token>/", public.public_league, name="public_league"),
    path("p/<slug:token>/games/<int:pk>/", public.public_game, name="public_game"),
    # Game history: downloads for members, import for owners.
    path("leagues/<slug:slug>/history.json", history.league_export, {"fmt": "json"}, name="league_export_json"),
    path("leagues/<slug:slug>/history.zip", history.league_export, {"fmt": "csv"}, name="league_export_csv"),
    path("leagues/<slug:slug>/games/<int:pk>/history.json", history.game_export, {"fmt": "json"}, name="game_export_json"),
    path("leagues/<slug:slug>/games/<int:pk>/history.zip", history.game_export, {"fmt": "csv"}, name="game_export_csv"),
    path("leagues/<slug:slug>/import/", history.league_import, name="league_import"),
    path("leagues/<slug:slug>/import/<int:pk>/", history.import_job, name="import_job"),
]
