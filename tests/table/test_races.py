"""Races between phones: what one phone was told it saved stays saved, and a league keeps an owner.

Real threads, each a phone with its own session and database connection, through the views (as
``tests/table/test_concurrent_requests.py``), on SQLite in WAL mode and on PostgreSQL alike. Each race is run for
several rounds, as the attack did: one lucky ordering is not enough to show a lost hand.
"""

from __future__ import annotations

import re
import threading
import time
import uuid

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from scores.common.refusals import Refused
from scores.engine import rules
from scores.leagues import services as leagues_services
from scores.leagues.models import League, Membership, Role
from scores.table import services
from scores.table.models import Game, Hand
from tests.conftest import hand
from tests.table.test_concurrency import assert_consistent, run_together
from tests.table.test_concurrent_requests import acknowledged, assert_no_failures, save, taps

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
ROUNDS = 10
UNDONE = "Hand 5 was undone."


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _game_with_hands(league: League, code: str, count: int) -> Game:
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], code=code, rules=rules.Rules())
    for _ in range(count):
        services.record_hand(game=game, hand=hand("Ann", 1, "Bob", "Cat"))
    return game


def _told_saved(response) -> bool:
    """The phone was told its hand is saved: the answer that clears the form for the next hand (refusals say
    why, with a 200 too)."""
    return response.status_code == 200 and "hand-saved" in response.get("HX-Trigger", "")


def _undo(client: Client, game: Game, number: int):
    return client.post(reverse("scores:hand_undo", args=[game.league.slug, game.pk]), {"number": number}, **HTMX)


def test_an_undo_racing_a_new_hand_never_loses_the_saved_hand(league, make_user):
    """Hand 6 saved on one phone while another undoes hand 5, the last it saw: never both (the attack: 4-6 of 20)."""
    user = make_user("sam", league, Role.SCORER)
    saver, undoer = _client(user), _client(user)
    for round_ in range(ROUNDS):
        game = _game_with_hands(league, f"round-{round_}", 5)
        fifth = Hand.objects.get(game=game, number=5)
        key = uuid.uuid4()
        data = taps("Dan", 2, "Dan", "Dan", number=6, key=key)
        results = run_together([lambda g=game, d=data: save(saver, g, d), lambda g=game: _undo(undoer, g, 5)])
        assert_no_failures(results)
        saved, undone = _told_saved(results[0]), UNDONE in results[1].content.decode()
        assert not (saved and undone), f"round {round_}: hand 6 was acknowledged and hand 5 undone"
        if saved:  # The undo came second: refused, saying why, and hand 5 is still there.
            assert "Hand 6 was added meanwhile; nothing was undone." in results[1].content.decode()
            assert Hand.objects.get(game=game, number=6).idempotency_key == key
            assert Hand.objects.filter(pk=fifth.pk, number=5).exists()
        if undone:  # The undo came first: the new hand was told it is not hand 6 any more, and nothing was saved.
            assert "the next hand is hand 5, not 6" in results[0].content.decode()
            assert not Hand.objects.filter(game=game, idempotency_key=key).exists()
            assert not Hand.objects.filter(pk=fifth.pk).exists()
        assert_consistent(game, 5 + saved - undone)


def test_an_undo_that_waited_for_a_hand_being_saved_undoes_nothing(league, make_user):
    """The attack's ordering made certain: hand 6 is being saved (the game locked, not yet committed) when the
    undo of hand 5 reads the game, so the undo can only see hand 6 once it has the lock itself."""
    undoer = _client(make_user("sam", league, Role.SCORER))
    game = _game_with_hands(league, "g", 5)
    key, locked = uuid.uuid4(), threading.Event()

    def save_slowly() -> Hand:
        with transaction.atomic():
            saved = services.record_hand(game=game, hand=hand("Dan", 2, "Dan", "Dan"), number=6, idempotency_key=key)
            locked.set()
            time.sleep(1)  # Ordering only, never measured: the undo reads the game and queues for its lock meanwhile.
        return saved

    def undo():
        locked.wait(timeout=30)
        return _undo(undoer, game, 5)

    saved, response = run_together([save_slowly, undo])
    assert_no_failures([response])
    assert isinstance(saved, Hand) and saved.number == 6
    assert "Hand 6 was added meanwhile; nothing was undone." in response.content.decode()
    assert Hand.objects.get(game=game, idempotency_key=key).number == 6
    assert_consistent(game, 6)


def test_an_undo_of_a_hand_that_is_no_longer_the_last_changes_nothing(scorer, league):
    game = _game_with_hands(league, "g", 6)
    response = scorer.post(reverse("scores:hand_undo", args=[league.slug, game.pk]), {"number": 5}, follow=True)
    assert "Hand 6 was added meanwhile; nothing was undone." in response.content.decode()
    assert_consistent(game, 6)


def _version_on(page: str) -> int:
    return int(re.search(r'name="version" value="(\d+)"', page).group(1))


def test_an_edit_of_a_game_that_changed_since_the_form_was_shown_is_refused(scorer, league):
    game = _game_with_hands(league, "g", 1)
    url = reverse("scores:hand_edit", args=[league.slug, game.pk, 1])
    seen = _version_on(scorer.get(url).content.decode())
    services.record_hand(game=game, hand=hand("Bob", 1, "Bob", "Cat"))  # Another phone, meanwhile.
    edit = {"pitcher": "Ann", "bid": 2, "high": "Ann", "low": "Ann", "jack": "-", "game": "-", "version": seen}
    response = scorer.post(url, edit, follow=True)
    assert "The game was changed on another phone meanwhile; nothing was changed." in response.content.decode()
    assert Hand.objects.get(game=game, number=1).bid == 1
    assert_consistent(game, 2)


def test_an_edit_without_the_version_it_was_shown_at_changes_nothing(scorer, league):
    game = _game_with_hands(league, "g", 1)
    edit = {"pitcher": "Ann", "bid": 2, "high": "Ann", "low": "Ann", "jack": "-", "game": "-"}
    for version in [None, "", "x", "1e3"]:
        data = edit if version is None else {**edit, "version": version}
        response = scorer.post(reverse("scores:hand_edit", args=[league.slug, game.pk, 1]), data)
        assert response.status_code == 200
        assert "reload it and try again" in response.content.decode()
    assert Hand.objects.get(game=game, number=1).bid == 1


def test_a_delete_from_a_stale_edit_page_deletes_nothing(scorer, league):
    game = _game_with_hands(league, "g", 2)
    seen = _version_on(scorer.get(reverse("scores:hand_edit", args=[league.slug, game.pk, 1])).content.decode())
    services.undo_hand(game=game, number=2)  # Another phone, meanwhile.
    response = scorer.post(reverse("scores:hand_delete", args=[league.slug, game.pk, 1]), {"version": seen}, follow=True)
    assert "The game was changed on another phone meanwhile" in response.content.decode()
    assert_consistent(game, 1)
    fresh = _version_on(scorer.get(reverse("scores:hand_edit", args=[league.slug, game.pk, 1])).content.decode())
    response = scorer.post(reverse("scores:hand_delete", args=[league.slug, game.pk, 1]), {"version": fresh}, follow=True)
    assert "Hand 1 was deleted." in response.content.decode()
    assert_consistent(game, 0)


def test_an_edit_racing_a_new_hand_is_stored_or_refused_and_the_new_hand_kept(league, make_user):
    user = make_user("sam", league, Role.SCORER)
    editor, scorer = _client(user), _client(user)
    outcomes = set()
    for round_ in range(ROUNDS):
        game = _game_with_hands(league, f"round-{round_}", 1)
        url = reverse("scores:hand_edit", args=[league.slug, game.pk, 1])
        seen = _version_on(editor.get(url).content.decode())
        edit = {"pitcher": "Ann", "bid": 2, "high": "Ann", "low": "Ann", "jack": "-", "game": "-", "version": seen}
        results = run_together(
            [lambda u=url, e=edit: editor.post(u, e, follow=True), lambda g=game: save(scorer, g, taps("Bob", 1, "Bob", "Cat", number=2))]
        )
        assert_no_failures(results)
        assert acknowledged(results[1])
        assert_consistent(game, 2)
        refused = "changed on another phone meanwhile" in results[0].content.decode()
        assert Hand.objects.get(game=game, number=1).bid == (1 if refused else 2)
        outcomes.add(refused)
    assert outcomes  # Which orderings happened is up to the machine; each one kept every saved hand.


def _owners(league: League) -> int:
    return Membership.objects.filter(league=league, role=Role.OWNER).count()


def _act(client: Client, change: str, member: Membership):
    """An owner demotes ``member`` to viewer, or removes them, from the members page."""
    if change == "demote":
        url = reverse("scores:member_role", args=[member.league.slug, member.pk])
        return client.post(url, {f"m{member.pk}-role": "viewer"}, follow=True)
    return client.post(reverse("scores:member_remove", args=[member.league.slug, member.pk]), follow=True)


@pytest.mark.parametrize("change", ["demote", "remove"])
def test_two_owners_demoting_or_removing_each_other_leave_an_owner(make_user, change):
    """The attack: 2 of 5 leagues ended with no owner."""
    for round_ in range(ROUNDS):
        league = League.objects.create(name=f"League {round_}", slug=f"league-{round_}")
        ada, bea = make_user(f"ada{round_}", league, Role.OWNER), make_user(f"bea{round_}", league, Role.OWNER)
        first, second = (Membership.objects.get(league=league, user=user) for user in (ada, bea))
        clients = [_client(ada), _client(bea)]
        results = run_together([lambda c=clients[0], m=second: _act(c, change, m), lambda c=clients[1], m=first: _act(c, change, m)])
        assert_no_failures(results)
        assert _owners(league) == 1, f"round {round_}: {_owners(league)} owners"
        done = [r for r in results if r.status_code == 200 and ("is now Viewer." in r.text or "is no longer a member." in r.text)]
        # The other is refused: a 404 if the owner was no longer one when the page checked, else a message.
        refused = [r for r in results if r.status_code == 404 or "no longer an owner" in r.text or "only owner" in r.text]
        assert len(done) == 1 and len(refused) == 1


def test_an_owner_demoted_a_moment_ago_can_no_longer_change_roles(league, make_user):
    ada, bea = make_user("ada", league, Role.OWNER), make_user("bea", league, Role.OWNER)
    sam = make_user("sam", league, Role.VIEWER)
    Membership.objects.filter(user=bea).update(role=Role.VIEWER)  # After bea's page passed the owner check.
    with pytest.raises(Refused, match="no longer an owner"):
        leagues_services.change_role(league=league, member_pk=Membership.objects.get(user=sam).pk, role=Role.OWNER, by=bea)
    assert Membership.objects.get(user=sam).role == Role.VIEWER
    assert (
        leagues_services.change_role(league=league, member_pk=Membership.objects.get(user=sam).pk, role=Role.OWNER, by=ada).role
        == Role.OWNER
    )
