"""Every league page for every role: owner, scorer, viewer, a stranger's account, anonymous, and the public link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores import services
from scores.models import Invite, League, Membership, Role

from .conftest import hand

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
        services.record_hand(game=four_player_game, hand=hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"))
    league.public_token = "public-token"
    league.save()
    other = make_user("otto", league, Role.VIEWER)
    return {
        "league": league,
        "users": users,
        "game": four_player_game,
        "player": four_player_game.seats.first().player,
        "invite": Invite.objects.create(league=league, role=Role.SCORER),
        "member": Membership.objects.get(user=other),
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
}
OWNER_PAGES = {
    "league_settings": lambda w: reverse("scores:league_settings", args=["thursday"]),
    "member_list": lambda w: reverse("scores:member_list", args=["thursday"]),
    "league_delete": lambda w: reverse("scores:league_delete", args=["thursday"]),
}
EXPECTED_READ = {"owner": 200, "scorer": 200, "viewer": 200, "stranger": 404, "anonymous": 302}
EXPECTED_OWNER = {"owner": 200, "scorer": 404, "viewer": 404, "stranger": 404, "anonymous": 302}
TABLE = [(page, role, EXPECTED_READ[role]) for page in READ_PAGES for role in ROLES] + [
    (page, role, EXPECTED_OWNER[role]) for page in OWNER_PAGES for role in ROLES
]


@pytest.mark.parametrize(("page", "role", "status"), TABLE)
def test_member_pages_answer_each_role(client, world, page, role, status):
    url = {**READ_PAGES, **OWNER_PAGES}[page](world)
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
    theirs = services.start_game(league=elsewhere, seats=["Xan", "Yul"], code="theirs")
    assert client.get(f"/p/public-token/games/{theirs.pk}/").status_code == 404


def test_a_game_of_another_league_is_404_under_this_leagues_address(client, world):
    elsewhere = League.objects.get(slug="elsewhere")
    theirs = services.start_game(league=elsewhere, seats=["Xan", "Yul"], code="theirs")
    client.force_login(world["users"]["owner"])
    assert client.get(reverse("scores:game_detail", args=["thursday", theirs.pk])).status_code == 404
    assert client.get(reverse("scores:player_detail", args=["thursday", theirs.seats.first().player_id])).status_code == 404


# Owner-only writes: everyone else gets 404 (or the log-in page) and nothing changes.
WRITES = {
    "league_settings": (lambda w: reverse("scores:league_settings", args=["thursday"]), lambda w: {"name": "Renamed"}),
    "league_public_link": (lambda w: reverse("scores:league_public_link", args=["thursday"]), lambda w: {"action": "off"}),
    "league_delete": (lambda w: reverse("scores:league_delete", args=["thursday"]), lambda w: {}),
    "member_role": (
        lambda w: reverse("scores:member_role", args=["thursday", w["member"].pk]),
        lambda w: {f"m{w['member'].pk}-role": "owner"},
    ),
    "member_remove": (lambda w: reverse("scores:member_remove", args=["thursday", w["member"].pk]), lambda w: {}),
    "invite_new": (lambda w: reverse("scores:invite_new", args=["thursday"]), lambda w: {"role": "viewer"}),
    "invite_revoke": (lambda w: reverse("scores:invite_revoke", args=["thursday", w["invite"].pk]), lambda w: {}),
}


def _snapshot(world) -> tuple:
    league = League.objects.filter(pk=world["league"].pk).values_list("name", "public_token").first()
    members = sorted(Membership.objects.filter(league=world["league"]).values_list("user_id", "role"))
    invites = sorted(Invite.objects.filter(league=world["league"]).values_list("pk", "role", "revoked"))
    return league, members, invites


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
