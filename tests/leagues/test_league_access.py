"""Every league page for every role: owner, scorer, viewer, a stranger's account, anonymous, and the public link."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scores.engine import planner, rules
from scores.history.models import ImportJob
from scores.leagues.models import Invite, League, Membership, Player, Role
from scores.nights import services as nights_services
from scores.nights.models import Night, Round
from scores.people import services
from scores.people.models import Claim
from scores.standings import services as standings_services
from scores.standings.models import Season
from scores.table import services as table_services
from scores.table.forms.hands import restore_token
from scores.table.models import Game, Hand
from tests.conftest import hand

ROLES = ["owner", "scorer", "viewer", "stranger", "anonymous"]


@pytest.fixture
def world(league, make_user, four_player_game):
    """A league with one member of each role, a finished game, an invite and a public link; a stranger in another league."""
    users = {
        "owner": make_user("olive", league, Role.OWNER),
        "scorer": make_user("sam", league, Role.SCORER),
        "viewer": make_user("vic", league, Role.VIEWER),
        "stranger": make_user("stan", League.objects.create(name="Elsewhere", slug="elsewhere"), Role.OWNER),
        "anonymous": None,
    }
    for _ in range(2):
        table_services.record_hand(game=four_player_game, hand=hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"))
    league.public_token = "public-token"
    league.save()
    other = make_user("otto", league, Role.VIEWER)
    night = nights_services.start_night(
        league=league,
        name="Friday",
        played_on=datetime.date(2026, 3, 6),
        seating=planner.Seating(),
        rounds=3,
        game_rules=rules.Rules(),
        players=list(Player.objects.filter(league=league, name__in=["Ann", "Bob", "Cat", "Dan"])),
        by=users["owner"],
    )
    season = standings_services.start_season(league=league, name="Spring", starts_on=datetime.date(2026, 3, 1), by=users["owner"])
    gil, gill = services.add_guest(league=league, name="Gil"), services.add_guest(league=league, name="Gill")
    hal = services.add_guest(league=league, name="Hal")
    return {
        "league": league,
        "users": users,
        "game": four_player_game,
        "player": four_player_game.seats.first().player,
        "invite": Invite.objects.create(league=league, role=Role.SCORER),
        "member": Membership.objects.get(user=other),
        "open_game": table_services.start_game(league=league, seats=["Ann", "Bob"], code="open", rules=rules.Rules()),
        "import_job": ImportJob.objects.create(league=league, user=users["owner"], filename="h.json", source=b"{}"),
        "night": night,
        "table": Game.objects.get(round__night=night),
        "season": season,
        "guests": (gil, gill),
        "claim": services.claim_player(player=hal, user=other),
    }


def _client(client, world, role):
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    return client


READ_PAGES = {
    "league_detail": lambda w: reverse("scores:league_detail", args=["thursday"]),
    "game_list": lambda w: reverse("scores:game_list", args=["thursday"]),
    "player_detail": lambda w: reverse("scores:player_detail", args=["thursday", w["player"].pk]),
    "game_detail": lambda w: reverse("scores:game_detail", args=["thursday", w["game"].pk]),
    "league_export_json": lambda w: reverse("scores:league_export_json", args=["thursday"]),
    "league_export_csv": lambda w: reverse("scores:league_export_csv", args=["thursday"]),
    "game_export_json": lambda w: reverse("scores:game_export_json", args=["thursday", w["game"].pk]),
    "game_export_csv": lambda w: reverse("scores:game_export_csv", args=["thursday", w["game"].pk]),
    "watch_qr": lambda w: reverse("scores:watch_qr", args=["thursday", w["game"].pk, w["game"].share_token]),
    "night_list": lambda w: reverse("scores:night_list", args=["thursday"]),
    "night_detail": lambda w: reverse("scores:night_detail", args=["thursday", w["night"].pk]),
    "night_screen": lambda w: reverse("scores:night_screen", args=["thursday", w["night"].pk]),
    "night_export_json": lambda w: reverse("scores:night_export_json", args=["thursday", w["night"].pk]),
    "night_export_csv": lambda w: reverse("scores:night_export_csv", args=["thursday", w["night"].pk]),
    "round_print": lambda w: reverse("scores:round_print", args=["thursday", w["night"].pk, 1]),
    "people": lambda w: reverse("scores:people", args=["thursday"]),
}
SCORER_PAGES = {
    "game_new": lambda w: reverse("scores:game_new", args=["thursday"]),
    "hand_edit": lambda w: reverse("scores:hand_edit", args=["thursday", w["game"].pk, 1]),
    "auction": lambda w: reverse("scores:auction", args=["thursday", w["open_game"].pk]),
}
OWNER_PAGES = {
    "league_import": lambda w: reverse("scores:league_import", args=["thursday"]),
    "import_job": lambda w: reverse("scores:import_job", args=["thursday", w["import_job"].pk]),
    "league_settings": lambda w: reverse("scores:league_settings", args=["thursday"]),
    "member_list": lambda w: reverse("scores:member_list", args=["thursday"]),
    "league_delete": lambda w: reverse("scores:league_delete", args=["thursday"]),
    "night_new": lambda w: reverse("scores:night_new", args=["thursday"]),
    "season_list": lambda w: reverse("scores:season_list", args=["thursday"]),
    "player_rename": lambda w: reverse("scores:player_rename", args=["thursday", w["player"].pk]),
    "merge": lambda w: reverse("scores:merge", args=["thursday"]) + f"?keep={w['guests'][0].pk}&drop={w['guests'][1].pk}",
}
EXPECTED_READ = {"owner": 200, "scorer": 200, "viewer": 200, "stranger": 404, "anonymous": 302}
EXPECTED_SCORER = {"owner": 200, "scorer": 200, "viewer": 404, "stranger": 404, "anonymous": 302}
EXPECTED_OWNER = {"owner": 200, "scorer": 404, "viewer": 404, "stranger": 404, "anonymous": 302}
TABLE = (
    [(page, role, EXPECTED_READ[role]) for page in READ_PAGES for role in ROLES]
    + [(page, role, EXPECTED_SCORER[role]) for page in SCORER_PAGES for role in ROLES]
    + [(page, role, EXPECTED_OWNER[role]) for page in OWNER_PAGES for role in ROLES]
)


@pytest.mark.parametrize(("page", "role", "status"), TABLE)
def test_member_pages_answer_each_role(client, world, page, role, status):
    url = {**READ_PAGES, **SCORER_PAGES, **OWNER_PAGES}[page](world)
    response = _client(client, world, role).get(url)
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("role", ROLES)
def test_the_public_link_shows_standings_and_games_to_anyone(client, world, role):
    response = _client(client, world, role).get(reverse("scores:public_league", args=["public-token"]))
    assert response.status_code == 200
    assert b"Standings" in response.content
    game = _client(client, world, role).get(reverse("scores:public_game", args=["public-token", world["game"].pk]))
    assert game.status_code == 200
    assert b"Ann won!" in game.content


def test_the_public_link_has_no_edit_links_and_no_member_pages(client, world):
    response = client.get(reverse("scores:public_league", args=["public-token"]))
    player_url = reverse("scores:player_detail", args=["thursday", world["player"].pk])
    assert player_url.encode() not in response.content
    assert world["game"].get_absolute_url().encode() not in response.content


@pytest.mark.parametrize("token", ["wrong-token", ""])
def test_a_wrong_or_turned_off_public_link_is_404(client, world, token):
    assert client.get(f"/p/{token or 'x'}/").status_code == 404
    League.objects.filter(pk=world["league"].pk).update(public_token=None)
    assert client.get("/p/public-token/").status_code == 404
    assert client.get(f"/p/public-token/games/{world['game'].pk}/").status_code == 404


def test_a_public_link_does_not_open_another_leagues_game(client, world):
    elsewhere = League.objects.get(slug="elsewhere")
    theirs = table_services.start_game(league=elsewhere, seats=["Xan", "Yul"], code="theirs", rules=rules.Rules())
    assert client.get(f"/p/public-token/games/{theirs.pk}/").status_code == 404


def test_a_game_of_another_league_is_404_under_this_leagues_address(client, world):
    elsewhere = League.objects.get(slug="elsewhere")
    theirs = table_services.start_game(league=elsewhere, seats=["Xan", "Yul"], code="theirs", rules=rules.Rules())
    client.force_login(world["users"]["owner"])
    assert client.get(reverse("scores:game_detail", args=["thursday", theirs.pk])).status_code == 404
    assert client.get(reverse("scores:player_detail", args=["thursday", theirs.seats.first().player_id])).status_code == 404


# Owner-only writes: everyone else gets 404 (or the log-in page) and nothing changes.
WRITES = {
    "league_settings": (lambda w: reverse("scores:league_settings", args=["thursday"]), lambda w: {"name": "Renamed"}),
    "league_public_link": (lambda w: reverse("scores:league_public_link", args=["thursday"]), lambda w: {"action": "off"}),
    "league_delete": (lambda w: reverse("scores:league_delete", args=["thursday"]), lambda w: {}),
    "game_delete": (lambda w: reverse("scores:game_delete", args=["thursday", w["game"].pk]), lambda w: {"version": _version(w)}),
    "member_role": (
        lambda w: reverse("scores:member_role", args=["thursday", w["member"].pk]),
        lambda w: {f"m{w['member'].pk}-role": "owner"},
    ),
    "member_remove": (lambda w: reverse("scores:member_remove", args=["thursday", w["member"].pk]), lambda w: {}),
    "invite_new": (lambda w: reverse("scores:invite_new", args=["thursday"]), lambda w: {"role": "viewer"}),
    "invite_revoke": (lambda w: reverse("scores:invite_revoke", args=["thursday", w["invite"].pk]), lambda w: {}),
    "game_watch_link": (lambda w: reverse("scores:game_watch_link", args=["thursday", w["game"].pk]), lambda w: {"action": "new"}),
    "season_list": (lambda w: reverse("scores:season_list", args=["thursday"]), lambda w: {"name": "Summer", "starts_on": "2026-06-01"}),
    "season_rename": (
        lambda w: reverse("scores:season_rename", args=["thursday", w["season"].pk]),
        lambda w: {f"s{w['season'].pk}-name": "Early spring"},
    ),
    "night_new": (
        lambda w: reverse("scores:night_new", args=["thursday"]),
        lambda w: (
            {"name": "Saturday", "played_on": "2026-03-07", "guests": "Ann\nBob\nCat\nDan", "mode": "partnership"}
            | {"solo_size": "4", "leftover": "solo", "rounds": "2", "target": "11"}
        ),
    ),
    "round_new": (
        lambda w: reverse("scores:round_new", args=["thursday", w["night"].pk]),
        lambda w: {"number": 2, "guests": "Ann\nBob\nCat\nDan", "unfinished": "on"},
    ),
    "table_scorer": (
        lambda w: reverse("scores:table_scorer", args=["thursday", w["night"].pk, w["table"].pk]),
        lambda w: {f"t{w['table'].pk}-scorer": w["users"]["scorer"].pk},
    ),
    "player_rename": (lambda w: reverse("scores:player_rename", args=["thursday", w["player"].pk]), lambda w: {"name": "Annie"}),
    "player_archive": (lambda w: reverse("scores:player_archive", args=["thursday", w["player"].pk]), lambda w: {"archived": "yes"}),
    "claim_decide": (lambda w: reverse("scores:claim_decide", args=["thursday", w["claim"].pk]), lambda w: {"decision": "confirm"}),
    "merge": (
        lambda w: reverse("scores:merge", args=["thursday"]),
        lambda w: {"keep": w["guests"][0].pk, "drop": w["guests"][1].pk},
    ),
}


def _snapshot(world) -> tuple:
    league = League.objects.filter(pk=world["league"].pk).values_list("name", "public_token").first()
    members = sorted(Membership.objects.filter(league=world["league"]).values_list("user_id", "role"))
    invites = sorted(Invite.objects.filter(league=world["league"]).values_list("pk", "role", "revoked", "expires_at"))
    watch_links = sorted(Game.objects.filter(league=world["league"]).values_list("pk", "share_token", "scorer_id"))
    seasons = sorted(Season.objects.filter(league=world["league"]).values_list("name", "starts_on"))
    nights = sorted(Night.objects.values_list("name")) + sorted(Round.objects.values_list("night_id", "number"))
    people = sorted(Player.objects.values_list("pk", "name", "archived", "user_id")) + sorted(Claim.objects.values_list("pk"))
    return league, members, invites, watch_links, seasons, nights, people


@pytest.mark.parametrize("role", ["scorer", "viewer", "stranger", "anonymous"])
@pytest.mark.parametrize("write", WRITES)
def test_only_the_owner_may_change_the_league(client, world, role, write):
    url, data = WRITES[write]
    before = _snapshot(world)
    response = _client(client, world, role).post(url(world), data(world))
    assert response.status_code == (302 if role == "anonymous" else 404)
    assert _snapshot(world) == before


@pytest.mark.parametrize("write", WRITES)
def test_the_owner_may_change_the_league(client, world, write):
    url, data = WRITES[write]
    before = _snapshot(world)
    response = _client(client, world, "owner").post(url(world), data(world))
    assert response.status_code == 302
    assert _snapshot(world) != before


@pytest.mark.parametrize("write", WRITES)
def test_a_get_never_changes_the_league(client, world, write):
    url, _data = WRITES[write]
    before = _snapshot(world)
    _client(client, world, "owner").get(url(world))
    assert _snapshot(world) == before


# Scorer writes: viewers, strangers and the logged-out get 404 (or the log-in page) and nothing changes.
SCORER_WRITES = {
    "hand_create": (
        lambda w: reverse("scores:hand_create", args=["thursday", w["open_game"].pk]),
        lambda w: {
            "number": 1,
            "key": "8a6e0804-2bd0-4672-b79a-4d5b9f0ad1b1",
            "pitcher": "Ann",
            "bid": 1,
            "high": "Ann",
            "low": "Ann",
            "jack": "-",
            "game": "-",
        },
    ),
    "hand_undo": (lambda w: reverse("scores:hand_undo", args=["thursday", w["game"].pk]), lambda w: {"number": 2}),
    "hand_restore": (
        lambda w: reverse("scores:hand_restore", args=["thursday", w["open_game"].pk]),
        lambda w: {"token": restore_token(w["open_game"].pk, _version(w, "open_game"), 1, hand("Ann", 1, "Ann", "Ann"))},
    ),
    "hand_edit": (
        lambda w: reverse("scores:hand_edit", args=["thursday", w["game"].pk, 1]),
        lambda w: {"pitcher": "Bob", "bid": 1, "high": "Bob", "low": "Bob", "jack": "-", "game": "-", "version": _version(w)},
    ),
    "hand_delete": (lambda w: reverse("scores:hand_delete", args=["thursday", w["game"].pk, 1]), lambda w: {"version": _version(w)}),
    "rematch": (lambda w: reverse("scores:rematch", args=["thursday", w["game"].pk]), lambda w: {}),
    "game_new": (
        lambda w: reverse("scores:game_new", args=["thursday"]),
        lambda w: {"new_1": "Zed", "new_2": "Yan", "mode": "solo", "target": "7", "first_dealer": "1", "team1": "A", "team2": "B"},
    ),
    "guest_new": (lambda w: reverse("scores:guest_new", args=["thursday"]), lambda w: {"name": "Ike"}),
    "game_rules": (
        lambda w: reverse("scores:game_rules", args=["thursday", w["open_game"].pk]),
        lambda w: {"version": _version(w, "open_game"), "rules-target": "21"},
    ),
    "paper_result": (
        lambda w: reverse("scores:paper_result", args=["thursday", w["open_game"].pk]),
        lambda w: {"version": _version(w, "open_game"), "side_0": "7", "side_1": "2"},
    ),
}


def _version(world, game: str = "game") -> int:
    """The game's version as the edit page shows it (the edit and delete forms send it back)."""
    return Game.objects.get(pk=world[game].pk).version


def _games_snapshot() -> list:
    return (
        sorted(Hand.objects.values_list("game__code", "number", "pitcher__player__name", "bid"))
        + sorted(Game.objects.values_list("code", "status", "target"))
        + sorted(Player.objects.values_list("name", flat=True))
    )


@pytest.mark.parametrize("role", ["viewer", "stranger", "anonymous"])
@pytest.mark.parametrize("write", SCORER_WRITES)
def test_only_scorers_and_owners_may_record_and_fix_hands(client, world, role, write):
    url, data = SCORER_WRITES[write]
    before = _games_snapshot()
    response = _client(client, world, role).post(url(world), data(world))
    assert response.status_code == (302 if role == "anonymous" else 404)
    if role == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    assert _games_snapshot() == before


def test_only_the_owner_may_import(client, world):
    upload = b'{"format": "pitch-history", "version": 1, "games": [{"id": "new", "seats": ["Ann", "Bob"], "hands": []}]}'
    for role in ["scorer", "viewer", "stranger"]:
        response = _client(client, world, role).post(
            reverse("scores:league_import", args=["thursday"]), {"file": SimpleUploadedFile("h.json", upload)}
        )
        assert response.status_code == 404
        client.logout()
    assert not Game.objects.filter(code="new").exists()


def test_every_league_address_is_in_these_tables():
    """A new page or action under /leagues/<slug>/ must say here who may use it."""
    from scores.urls import urlpatterns

    named = {p.name for p in urlpatterns if str(p.pattern).startswith("leagues/<slug:slug>/")}
    # The offline queue's sync takes JSON and answers JSON: tests/table/test_offline_sync.py checks its access.
    # A claim is any member's: test_any_member_may_claim_a_guest below.
    covered = set(READ_PAGES) | set(SCORER_PAGES) | set(OWNER_PAGES) | set(WRITES) | set(SCORER_WRITES) | {"hand_sync", "player_claim"}
    assert named - covered == set()


@pytest.mark.parametrize("write", SCORER_WRITES)
def test_a_scorer_may_record_and_fix_hands(client, world, write):
    url, data = SCORER_WRITES[write]
    before = _games_snapshot()
    response = _client(client, world, "scorer").post(url(world), data(world))
    assert response.status_code == 302
    assert _games_snapshot() != before


@pytest.mark.parametrize("role", ROLES)
def test_any_member_may_claim_a_guest_and_no_one_else(client, world, role):
    gil = world["guests"][0]
    response = _client(client, world, role).post(reverse("scores:player_claim", args=["thursday", gil.pk]))
    claimed = Claim.objects.filter(player=gil).exists()
    if role in ("stranger", "anonymous"):
        assert response.status_code == (302 if role == "anonymous" else 404) and not claimed
        if role == "anonymous":
            assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 302 and claimed
