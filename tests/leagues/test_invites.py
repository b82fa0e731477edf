"""Invite links that do not outlive their purpose: they expire, owners revoke them, and someone an
owner removed cannot come back through a link made before the removal."""

from __future__ import annotations

import datetime

import pytest
from django.template.defaultfilters import date as date_filter
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scores.leagues.models import INVITE_DAYS, Invite, League, Membership, Removal, Role

pytestmark = pytest.mark.django_db
REMOVED = "You were removed from this league: ask an owner to invite you again."
GONE = "This invite link no longer works: ask an owner of the league for a new one."


def _members_url(league: League) -> str:
    return reverse("scores:member_list", args=[league.slug])


def _remove(owner_client, league: League, user) -> None:
    member = Membership.objects.get(league=league, user=user)
    owner_client.post(reverse("scores:member_remove", args=[league.slug, member.pk]))
    assert not Membership.objects.filter(league=league, user=user).exists()


def test_a_removed_member_cannot_rejoin_through_the_link_they_used(owner_client, league, make_user):
    """The attack: removed, then back in through the old link."""
    invite = Invite.objects.create(league=league, role=Role.SCORER)
    sam = make_user("sam")
    client = Client()  # Sam's phone; the owner's is owner_client.
    client.force_login(sam)
    client.post(invite.get_absolute_url())
    assert Membership.objects.filter(league=league, user=sam).exists()
    _remove(owner_client, league, sam)
    opened = client.get(invite.get_absolute_url())
    assert opened.status_code == 403 and REMOVED in opened.text and "Join the league" not in opened.text
    joined = client.post(invite.get_absolute_url())
    assert joined.status_code == 403 and REMOVED in joined.text
    assert not Membership.objects.filter(league=league, user=sam).exists()
    assert client.get(league.get_absolute_url()).status_code == 404


def test_an_owner_may_invite_a_removed_member_again_with_a_new_link(owner_client, client, league, make_user):
    old = Invite.objects.create(league=league, role=Role.SCORER)
    sam = make_user("sam", league, Role.SCORER)
    _remove(owner_client, league, sam)
    owner_client.post(reverse("scores:invite_new", args=[league.slug]), {"role": "viewer", "days": "1"})
    new = Invite.objects.exclude(pk=old.pk).get()
    client.force_login(sam)
    assert "You are invited to join as Viewer." in client.get(new.get_absolute_url()).text
    client.post(new.get_absolute_url())
    assert Membership.objects.get(league=league, user=sam).role == Role.VIEWER
    assert not Removal.objects.filter(league=league, user=sam).exists()  # Invited again: the old link works as for anyone.
    assert client.get(old.get_absolute_url()).status_code == 200


def test_a_member_who_leaves_may_come_back_through_a_link(client, league, make_user):
    ada = make_user("ada", league, Role.OWNER)
    invite = Invite.objects.create(league=league, role=Role.SCORER)
    sam = make_user("sam", league, Role.OWNER)
    client.force_login(sam)
    client.post(reverse("scores:member_remove", args=[league.slug, Membership.objects.get(user=sam).pk]))
    assert not Membership.objects.filter(user=sam).exists() and not Removal.objects.exists()
    client.post(invite.get_absolute_url())
    assert Membership.objects.get(league=league, user=sam).role == Role.SCORER
    assert Membership.objects.get(user=ada).role == Role.OWNER


def test_a_removal_in_one_league_does_not_bar_another(owner_client, client, league, make_user):
    other = League.objects.create(name="Other", slug="other")
    invite = Invite.objects.create(league=other, role=Role.VIEWER)
    sam = make_user("sam", league, Role.SCORER)
    _remove(owner_client, league, sam)
    client.force_login(sam)
    client.post(invite.get_absolute_url())
    assert Membership.objects.filter(league=other, user=sam).exists()


def test_an_invite_link_expires_after_seven_days_by_default(owner_client, client, league, make_user):
    owner_client.post(reverse("scores:invite_new", args=[league.slug]), {"role": "scorer"})
    invite = Invite.objects.get()
    assert invite.expires_at - invite.created_at == pytest.approx(datetime.timedelta(days=INVITE_DAYS), abs=datetime.timedelta(seconds=5))
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    client.force_login(make_user("sam"))
    for response in (client.get(invite.get_absolute_url()), client.post(invite.get_absolute_url())):
        assert response.status_code == 410 and GONE in response.text
    assert not Membership.objects.filter(user__username="sam").exists()


@pytest.mark.parametrize(("days", "expected"), [("1", 1), ("7", 7), ("30", 30)])
def test_the_owner_picks_how_long_a_link_works(owner_client, league, days, expected):
    owner_client.post(reverse("scores:invite_new", args=[league.slug]), {"role": "viewer", "days": days})
    invite = Invite.objects.get()
    assert invite.expires_at - invite.created_at == pytest.approx(datetime.timedelta(days=expected), abs=datetime.timedelta(seconds=5))


@pytest.mark.parametrize("days", ["0", "365", "-1", "seven", "7.5", "1e3"])
def test_an_expiry_not_on_offer_is_refused_and_makes_no_link(owner_client, league, days):
    response = owner_client.post(reverse("scores:invite_new", args=[league.slug]), {"role": "viewer", "days": days})
    assert response.status_code == 400
    assert "Select a valid choice." in response.text and 'id="id_days"' in response.text
    assert not Invite.objects.exists()


def test_the_members_page_lists_the_active_links_with_role_and_expiry(owner_client, league):
    later = timezone.now() + datetime.timedelta(days=3)
    scorer = Invite.objects.create(league=league, role=Role.SCORER, expires_at=later)
    Invite.objects.create(league=league, role=Role.VIEWER, expires_at=timezone.now() - datetime.timedelta(minutes=1))
    Invite.objects.create(league=league, role=Role.VIEWER, revoked=True)
    page = owner_client.get(_members_url(league)).text
    assert scorer.token in page and page.count('aria-label="Invite link"') == 1
    assert "Joins as Viewer" not in page
    assert f"Joins as Scorer · works until {date_filter(later, 'DATETIME_FORMAT')}</span>" in page
    assert page.count(">Revoke</button>") == 1
    assert 'name="days"' in page and "Expires after" in page


def test_revoking_a_link_takes_it_off_the_list(owner_client, client, league, make_user):
    invite = Invite.objects.create(league=league, role=Role.SCORER)
    response = owner_client.post(reverse("scores:invite_revoke", args=[league.slug, invite.pk]), follow=True)
    assert "Invite revoked." in response.text and invite.token not in response.text
    client.force_login(make_user("sam"))
    assert client.post(invite.get_absolute_url()).status_code == 410
    assert not Membership.objects.filter(user__username="sam").exists()


def test_an_unknown_invite_link_is_404(client, make_user):
    client.force_login(make_user("sam"))
    assert client.get(reverse("scores:invite_accept", args=["no-such-token"])).status_code == 404
