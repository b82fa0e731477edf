"""The owner's pages: roles, removing members, invite links, the public link, renaming and deleting the league."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scores.leagues.models import Invite, League, Membership, Player, Role
from scores.table import services
from scores.table.models import Game
from tests.conftest import hand

pytestmark = pytest.mark.django_db


def _role(league, user) -> str | None:
    membership = Membership.objects.filter(league=league, user=user).first()
    return membership.role if membership else None


def test_the_members_page_lists_members_and_their_roles(owner_client, league, make_user):
    make_user("sam", league, Role.SCORER)
    response = owner_client.get(reverse("scores:member_list", args=[league.slug]))
    assert "olive (you)" in response.text
    assert "Change role of sam" in response.text
    assert "Remove sam" in response.text


def test_the_owner_changes_a_members_role(owner_client, league, make_user):
    sam = make_user("sam", league, Role.VIEWER)
    member = Membership.objects.get(user=sam)
    url = reverse("scores:member_role", args=[league.slug, member.pk])
    response = owner_client.post(url, {f"m{member.pk}-role": "scorer"}, follow=True)
    assert _role(league, sam) == Role.SCORER
    assert "sam is now Scorer." in response.text


def test_an_unknown_role_is_refused_with_a_message(owner_client, league, make_user):
    sam = make_user("sam", league, Role.VIEWER)
    member = Membership.objects.get(user=sam)
    response = owner_client.post(reverse("scores:member_role", args=[league.slug, member.pk]), {f"m{member.pk}-role": "king"}, follow=True)
    assert _role(league, sam) == Role.VIEWER
    assert "Select a valid choice" in response.text


def test_the_only_owner_cannot_step_down_or_be_removed(owner_client, league, owner):
    member = Membership.objects.get(user=owner)
    url = reverse("scores:member_role", args=[league.slug, member.pk])
    response = owner_client.post(url, {f"m{member.pk}-role": "viewer"}, follow=True)
    assert "olive is the only owner" in response.text
    response = owner_client.post(reverse("scores:member_remove", args=[league.slug, member.pk]), follow=True)
    assert "olive is the only owner and cannot be removed." in response.text
    assert _role(league, owner) == Role.OWNER


def test_with_a_second_owner_an_owner_may_leave(owner_client, league, owner, make_user):
    make_user("ada", league, Role.OWNER)
    member = Membership.objects.get(user=owner)
    response = owner_client.post(reverse("scores:member_remove", args=[league.slug, member.pk]))
    assert response["Location"] == reverse("scores:home")
    assert _role(league, owner) is None


def test_the_owner_removes_a_member_who_then_sees_nothing(owner_client, client, league, make_user):
    sam = make_user("sam", league, Role.SCORER)
    owner_client.post(reverse("scores:member_remove", args=[league.slug, Membership.objects.get(user=sam).pk]))
    assert _role(league, sam) is None
    client.force_login(sam)
    assert client.get(league.get_absolute_url()).status_code == 404


def test_a_member_of_another_league_cannot_be_changed_from_this_one(owner_client, league, make_user):
    other = League.objects.create(name="Other", slug="other")
    stan = make_user("stan", other, Role.OWNER)
    member = Membership.objects.get(user=stan)
    response = owner_client.post(reverse("scores:member_remove", args=[league.slug, member.pk]))
    assert response.status_code == 404
    assert _role(other, stan) == Role.OWNER


def test_an_invite_link_joins_the_league_with_its_role(owner_client, client, league, make_user):
    owner_client.post(reverse("scores:invite_new", args=[league.slug]), {"role": "scorer"})
    invite = Invite.objects.get()
    assert invite.role == Role.SCORER
    page = owner_client.get(reverse("scores:member_list", args=[league.slug]))
    assert f"http://testserver/invite/{invite.token}/" in page.text
    sam = make_user("sam")
    client.force_login(sam)
    opened = client.get(invite.get_absolute_url())
    assert "You are invited to join as Scorer." in opened.text
    assert _role(league, sam) is None  # Opening the link only asks.
    response = client.post(invite.get_absolute_url())
    assert response["Location"] == league.get_absolute_url()
    assert _role(league, sam) == Role.SCORER


def test_an_invite_does_not_change_the_role_of_a_member(client, league, make_user):
    invite = Invite.objects.create(league=league, role=Role.VIEWER)
    owner = make_user("olive", league, Role.OWNER)
    client.force_login(owner)
    assert "You are already a member, as Owner." in client.get(invite.get_absolute_url()).text
    client.post(invite.get_absolute_url())
    assert _role(league, owner) == Role.OWNER


def test_opening_an_invite_logged_out_asks_to_log_in_or_sign_up_and_comes_back(client, league):
    invite = Invite.objects.create(league=league, role=Role.VIEWER)
    response = client.get(invite.get_absolute_url(), follow=True)
    assert response.redirect_chain[0][0] == f"{reverse('login')}?next={invite.get_absolute_url()}"
    assert f'href="/accounts/signup/?next={invite.get_absolute_url()}"' in response.text
    password = "correct horse battery"
    data = {"username": "newbie", "password1": password, "password2": password, "next": invite.get_absolute_url()}
    signed_up = client.post(reverse("scores:signup"), data)
    assert signed_up["Location"] == invite.get_absolute_url()
    client.post(invite.get_absolute_url())
    assert Membership.objects.get(league=league, user__username="newbie").role == Role.VIEWER


def test_a_revoked_invite_no_longer_works(owner_client, client, league, make_user):
    invite = Invite.objects.create(league=league, role=Role.SCORER)
    owner_client.post(reverse("scores:invite_revoke", args=[league.slug, invite.pk]))
    invite.refresh_from_db()
    assert invite.revoked
    client.force_login(make_user("sam"))
    for response in (client.get(invite.get_absolute_url()), client.post(invite.get_absolute_url())):
        assert response.status_code == 410
        assert "This invite link no longer works: ask an owner of the league for a new one." in response.text
        assert "Join the league" not in response.text
    assert not Membership.objects.filter(user__username="sam").exists()


def test_an_invite_cannot_make_an_owner(owner_client, league):
    response = owner_client.post(reverse("scores:invite_new", args=[league.slug]), {"role": "owner"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.text
    assert not Invite.objects.exists()


def test_the_public_link_is_turned_on_renewed_and_off(owner_client, client, league):
    url = reverse("scores:league_public_link", args=[league.slug])
    owner_client.post(url, {"action": "on"})
    league.refresh_from_db()
    first = league.public_token
    assert first and client.get(f"/p/{first}/").status_code == 200
    settings_page = owner_client.get(reverse("scores:league_settings", args=[league.slug]))
    assert f"http://testserver/p/{first}/" in settings_page.text
    owner_client.post(url, {"action": "new"})
    league.refresh_from_db()
    assert league.public_token != first
    assert client.get(f"/p/{first}/").status_code == 404
    assert client.get(f"/p/{league.public_token}/").status_code == 200
    owner_client.post(url, {"action": "off"})
    league.refresh_from_db()
    assert league.public_token is None
    assert "The public link is off." in owner_client.get(reverse("scores:league_settings", args=[league.slug])).text


def test_an_unknown_public_link_action_changes_nothing(owner_client, league):
    response = owner_client.post(reverse("scores:league_public_link", args=[league.slug]), {"action": "explode"}, follow=True)
    assert "Unknown action for the public link" in response.text
    league.refresh_from_db()
    assert league.public_token is None


def test_the_owner_renames_the_league(owner_client, league):
    owner_client.post(reverse("scores:league_settings", args=[league.slug]), {"name": "Thursday Night Pitch"})
    league.refresh_from_db()
    assert league.name == "Thursday Night Pitch"
    assert league.slug == "thursday"  # Links already shared keep working.


def test_deleting_the_league_deletes_its_games_and_players(owner_client, league, four_player_game):
    for _ in range(2):
        services.record_hand(game=four_player_game, hand=hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"))
    confirm = owner_client.get(reverse("scores:league_delete", args=[league.slug]))
    assert "Delete Thursday Pitch?" in confirm.text
    response = owner_client.post(reverse("scores:league_delete", args=[league.slug]))
    assert response["Location"] == reverse("scores:home")
    assert not League.objects.exists()
    assert not Game.objects.exists()
    assert not Player.objects.exists()
