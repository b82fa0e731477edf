from django.urls import path, register_converter

from .views import (
    accounts,
    auction,
    games,
    history,
    install,
    leagues,
    members,
    nights,
    offline,
    pages,
    people,
    players,
    public,
    seasons,
    watch,
)


class IdConverter:
    """A row's id or a hand's number: a positive number the database can hold, so no view checks the range again."""

    regex = "[1-9][0-9]{0,18}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number >= 2**63:
            raise ValueError(value)  # No such row: the address does not match, so Django answers 404.
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

app_name = "scores"
# Tokens are secrets.token_urlsafe: the slug alphabet exactly, so nothing else (a NUL byte, say) reaches a query.
urlpatterns = [
    # The live score's poll first, then the hand form: the requests phones make most often.
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
    # At the table on a phone: installable, a QR code of the watch link, a rematch.
    path("manifest/<slug:lang>.webmanifest", install.manifest, name="manifest"),  # In the page's language.
    path("sw.js", install.service_worker, name="service_worker"),
    path("jsi18n/<slug:lang>/", install.javascript_catalog, name="javascript_catalog"),  # The scripts' texts.
    path("leagues/<slug:slug>/games/<id:pk>/watch-qr/<slug:token>.svg", watch.watch_qr, name="watch_qr"),
    path("leagues/<slug:slug>/games/<id:pk>/rematch/", games.rematch, name="rematch"),
    path("leagues/<slug:slug>/games/<id:pk>/rules/", games.game_rules, name="game_rules"),
    path("leagues/<slug:slug>/games/<id:pk>/delete/", games.game_delete, name="game_delete"),
    # Accounts, leagues, members and the public link.
    path("accounts/signup/", accounts.signup, name="signup"),
    path("leagues/new/", leagues.league_new, name="league_new"),
    path("leagues/<slug:slug>/", leagues.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/games/", leagues.game_list, name="game_list"),
    path("leagues/<slug:slug>/players/<id:pk>/", players.player_detail, name="player_detail"),
    # Seasons, card nights and the league's people.
    path("leagues/<slug:slug>/seasons/", seasons.season_list, name="season_list"),
    path("leagues/<slug:slug>/seasons/<id:pk>/rename/", seasons.season_rename, name="season_rename"),
    path("leagues/<slug:slug>/nights/", nights.night_list, name="night_list"),
    path("leagues/<slug:slug>/nights/new/", nights.night_new, name="night_new"),
    path("leagues/<slug:slug>/nights/<id:pk>/", nights.night_detail, name="night_detail"),
    path("leagues/<slug:slug>/nights/<id:pk>/screen/", nights.night_screen, name="night_screen"),
    path("leagues/<slug:slug>/nights/<id:pk>/rounds/new/", nights.round_new, name="round_new"),
    path("leagues/<slug:slug>/nights/<id:pk>/tables/<id:game_pk>/scorer/", nights.table_scorer, name="table_scorer"),
    path("leagues/<slug:slug>/people/", people.people, name="people"),
    path("leagues/<slug:slug>/people/guests/new/", people.guest_new, name="guest_new"),
    path("leagues/<slug:slug>/people/merge/", people.merge, name="merge"),
    path("leagues/<slug:slug>/people/claims/<id:pk>/", people.claim_decide, name="claim_decide"),
    path("leagues/<slug:slug>/players/<id:pk>/rename/", people.player_rename, name="player_rename"),
    path("leagues/<slug:slug>/players/<id:pk>/archive/", people.player_archive, name="player_archive"),
    path("leagues/<slug:slug>/players/<id:pk>/claim/", people.player_claim, name="player_claim"),
    path("leagues/<slug:slug>/settings/", leagues.league_settings, name="league_settings"),
    path("leagues/<slug:slug>/settings/public-link/", leagues.league_public_link, name="league_public_link"),
    path("leagues/<slug:slug>/delete/", leagues.league_delete, name="league_delete"),
    path("leagues/<slug:slug>/members/", members.member_list, name="member_list"),
    path("leagues/<slug:slug>/members/<id:pk>/role/", members.member_role, name="member_role"),
    path("leagues/<slug:slug>/members/<id:pk>/remove/", members.member_remove, name="member_remove"),
    path("leagues/<slug:slug>/invites/new/", members.invite_new, name="invite_new"),
    path("leagues/<slug:slug>/invites/<id:pk>/revoke/", members.invite_revoke, name="invite_revoke"),
    path("invite/<slug:token>/", members.invite_accept, name="invite_accept"),
    path("p/<slug:token>/", public.public_league, name="public_league"),
    path("p/<slug:token>/games/<id:pk>/", public.public_game, name="public_game"),
    # Game history: downloads for members, import for owners.
    path("leagues/<slug:slug>/history.json", history.league_export, {"fmt": "json"}, name="league_export_json"),
    path("leagues/<slug:slug>/history.zip", history.league_export, {"fmt": "csv"}, name="league_export_csv"),
    path("leagues/<slug:slug>/games/<id:pk>/history.json", history.game_export, {"fmt": "json"}, name="game_export_json"),
    path("leagues/<slug:slug>/games/<id:pk>/history.zip", history.game_export, {"fmt": "csv"}, name="game_export_csv"),
    path("leagues/<slug:slug>/nights/<id:pk>/history.json", history.night_export, {"fmt": "json"}, name="night_export_json"),
    path("leagues/<slug:slug>/nights/<id:pk>/history.zip", history.night_export, {"fmt": "csv"}, name="night_export_csv"),
    path("leagues/<slug:slug>/import/", history.league_import, name="league_import"),
    path("leagues/<slug:slug>/import/<id:pk>/", history.import_job, name="import_job"),
]
