"""Races with a delete: a write to a game, a player or a claim that another request deleted a moment before is
answered with what happened (the game was deleted, the players are one already), never a server error, and changes
nothing.

Real threads, each a phone with its own session and database connection, through the views (as
``tests/test_races.py``), on SQLite and on PostgreSQL alike; each race run for several rounds, so the ordering where
the delete commits while the other request waits for the row's lock comes up in most runs.
"""

from __future__ import annotations

import html
import json
import re
import uuid
from collections.abc import Callable
from unittest import mock

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scores.common.refusals import Gone
from scores.models import Claim, Game, Hand, League, Player, Role
from scores.people import services as people_services
from scores.table import services as table_services
from tests.table.test_concurrency import run_together
from tests.table.test_concurrent_requests import assert_no_failures
from tests.table.test_races import _client, _game_with_hands

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
ROUNDS = 10
DELETED = "The game was deleted meanwhile, so nothing was changed."


def _version(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def _delete_game(client: Client, game: Game, version: int):
    return client.post(reverse("scores:game_delete", args=[game.league.slug, game.pk]), {"version": version}, follow=True)


def _shown_after(client: Client, response) -> str:
    """What the player reads after ``response``: its page, or for htmx the page it sends the browser to."""
    if "HX-Redirect" in response:
        return client.get(response["HX-Redirect"]).text
    return response.text


def _taps(number: int) -> dict:
    return {"pitcher": "Dan", "bid": "2", "high": "Dan", "low": "Dan", "jack": "-", "game": "-", "number": number, "key": str(uuid.uuid4())}


def _save(client: Client, game: Game, number: int, version: int):
    return client.post(reverse("scores:hand_create", args=[game.league.slug, game.pk]), _taps(number), **HTMX)


def _sync(client: Client, game: Game, number: int, version: int):
    taps = _taps(number)
    points = {key: None if taps[key] == "-" else taps[key] for key in ("high", "low", "jack", "game")}
    body = {key: value for key, value in taps.items() if key not in points} | {"points": points}
    url = reverse("scores:hand_sync", args=[game.league.slug, game.pk])
    return client.post(url, json.dumps({"hands": [body]}), content_type="application/json")


def _undo(client: Client, game: Game, number: int, version: int):
    return client.post(reverse("scores:hand_undo", args=[game.league.slug, game.pk]), {"number": number}, **HTMX)


def _edit(client: Client, game: Game, number: int, version: int):
    url = reverse("scores:hand_edit", args=[game.league.slug, game.pk, 1])
    edit = {"pitcher": "Ann", "bid": 2, "high": "Ann", "low": "Ann", "jack": "-", "game": "-", "version": version}
    return client.post(url, edit, follow=True)


def _delete_hand(client: Client, game: Game, number: int, version: int):
    url = reverse("scores:hand_delete", args=[game.league.slug, game.pk, 1])
    return client.post(url, {"version": version}, follow=True)


def _rules(client: Client, game: Game, number: int, version: int):
    url = reverse("scores:game_rules", args=[game.league.slug, game.pk])
    return client.post(url, {"version": version, "rules-target": "21"}, follow=True)


def _said(text: str) -> Callable[[Client, HttpResponse], bool]:
    return lambda client, response: text in _shown_after(client, response)


WRITES = {
    # A hand saved with htmx is answered with the scoreboard, and the form told to clear its taps for the next hand.
    "save": (_save, 2, lambda client, response: "hand-saved" in response.get("HX-Trigger", "")),
    "sync": (_sync, 2, lambda client, response: response.json()["results"][0]["status"] == "stored"),
    "undo": (_undo, 2, _said("Hand 2 was undone.")),
    "edit": (_edit, 2, _said("Hand 1 was changed")),
    "delete_hand": (_delete_hand, 2, _said("Hand 1 was deleted.")),
    "rules": (_rules, 0, _said("The game is now played by these rules")),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_write_racing_the_games_delete_is_done_first_or_told_the_game_was_deleted(league, make_user, write):
    """The attack: the write's phone got a server error in 3 of 4 rounds, whichever write it was."""
    act, hands, done = WRITES[write]
    scorer, owner = _client(make_user("sam", league, Role.SCORER)), _client(make_user("olive", league, Role.OWNER))
    for round_ in range(ROUNDS):
        game = _game_with_hands(league, f"round-{round_}", hands)
        number = hands + 1 if write in ("save", "sync") else hands
        seen = _version(game)
        wrote, deleted = run_together(
            [lambda g=game, n=number, v=seen: act(scorer, g, n, v), lambda g=game, v=seen: _delete_game(owner, g, v)]
        )
        assert_no_failures([wrote, deleted])
        if Game.objects.filter(pk=game.pk).exists():  # The write came first: the delete was refused, the write kept.
            assert "The game was changed on another phone meanwhile" in deleted.text, f"round {round_}"
            assert done(scorer, wrote), f"round {round_}"
            continue
        assert "was deleted." in deleted.text
        # The delete came first: the write was told so, or found no game at all (404) if it came after the delete's end.
        if wrote.status_code != 404:
            told = [r["messages"] for r in wrote.json()["results"]] if write == "sync" else _shown_after(scorer, wrote)
            assert DELETED in str(told), f"round {round_}: {str(told)[:300]}"
        assert not Hand.objects.filter(game_id=game.pk).exists()


def test_a_game_deleted_twice_at_once_is_deleted_once_and_the_other_told(league, make_user):
    ada, bea = _client(make_user("ada", league, Role.OWNER)), _client(make_user("bea", league, Role.OWNER))
    for round_ in range(ROUNDS):
        game = _game_with_hands(league, f"round-{round_}", 2)
        seen = _version(game)
        results = run_together([lambda g=game, v=seen: _delete_game(ada, g, v), lambda g=game, v=seen: _delete_game(bea, g, v)])
        assert_no_failures(results)
        assert not Game.objects.filter(pk=game.pk).exists()
        assert sum("(round-" in r.text and "was deleted." in r.text for r in results) == 1, f"round {round_}"
        assert sum(r.status_code == 404 or DELETED in r.text for r in results) == 1, f"round {round_}"


def _merge(client: Client, league: League, keep: Player, drop: Player):
    return client.post(reverse("scores:merge", args=[league.slug]), {"keep": keep.pk, "drop": drop.pk}, follow=True)


def test_two_owners_merging_the_same_players_merge_them_once_and_tell_the_other(league, make_user):
    """The attack: a server error in 20 of 20 rounds."""
    ada, bea = _client(make_user("ada", league, Role.OWNER)), _client(make_user("bea", league, Role.OWNER))
    for round_ in range(ROUNDS):
        keep, drop = (people_services.add_guest(league=league, name=f"{name} {round_}") for name in ("Kim", "Kimberly"))
        results = run_together([lambda k=keep, d=drop: _merge(ada, league, k, d), lambda k=keep, d=drop: _merge(bea, league, k, d)])
        assert_no_failures(results)
        merged = f"Kimberly {round_} is merged into Kim {round_}."
        assert sum(merged in r.text for r in results) == 1, f"round {round_}"
        # The other: the players are one already; or, if its form was read after the merge, the duplicate is no choice.
        told = f"Kimberly {round_} was merged into another player meanwhile: nothing was changed."
        refused = [r for r in results if told in r.text or (r.status_code == 400 and "Select a valid choice" in r.text)]
        assert len(refused) == 1, f"round {round_}"
        assert not Player.objects.filter(pk=drop.pk).exists()


def test_a_claim_answered_while_its_player_is_merged_away_is_told_so(league, make_user):
    owner = make_user("olive", league, Role.OWNER)
    merger, decider = _client(owner), _client(make_user("bea", league, Role.OWNER))
    for round_ in range(ROUNDS):
        keep, drop = (people_services.add_guest(league=league, name=f"{name} {round_}") for name in ("Kim", "Kimberly"))
        vic = make_user(f"vic{round_}", league, Role.VIEWER)
        claim = people_services.claim_player(player=drop, user=vic)
        url = reverse("scores:claim_decide", args=[league.slug, claim.pk])
        results = run_together(
            [lambda k=keep, d=drop: _merge(merger, league, k, d), lambda u=url: decider.post(u, {"decision": "confirm"}, follow=True)]
        )
        assert_no_failures(results)
        assert f"Kimberly {round_} is merged into Kim {round_}." in results[0].text
        confirmed = f"Kimberly {round_}'s games are now vic{round_}'s." in html.unescape(results[1].text)
        # Confirmed first (the merge then gives Kim the account), or told the claim is gone with its player (404 if the
        # page came after the merge).
        told = "was merged into another player meanwhile" in results[1].text or results[1].status_code == 404
        assert confirmed != told, f"round {round_}"
        assert not Claim.objects.filter(pk=claim.pk).exists()
        assert Player.objects.get(pk=keep.pk).user_id == (vic.pk if confirmed else None)


@pytest.mark.parametrize("change", ["rename", "archive", "claim"])
def test_a_change_to_a_player_merged_away_meanwhile_is_told_so(league, make_user, change):
    merger = _client(make_user("olive", league, Role.OWNER))
    other = _client(make_user("bea", league, Role.OWNER))
    for round_ in range(ROUNDS):
        keep, drop = (people_services.add_guest(league=league, name=f"{name} {round_}") for name in ("Kim", "Kimberly"))
        if change == "rename":
            url, data, done = "player_rename", {"name": f"Kimmy {round_}"}, f"Kimberly {round_} is now Kimmy {round_}."
        elif change == "archive":
            url, data, done = "player_archive", {"archived": "yes"}, f"Kimberly {round_} is archived"
        else:
            url, data, done = "player_claim", {}, f"Asked: once an owner confirms, Kimberly {round_}'s games are yours."
        act = reverse(f"scores:{url}", args=[league.slug, drop.pk])
        results = run_together([lambda k=keep, d=drop: _merge(merger, league, k, d), lambda a=act, d=data: other.post(a, d, follow=True)])
        assert_no_failures(results)
        # A rename that came first is merged under its new name.
        assert re.search(rf"(Kimberly|Kimmy) {round_} is merged into Kim {round_}\.", results[0].text)
        page = html.unescape(results[1].text)
        told = f"Kimberly {round_} was merged into another player meanwhile: nothing was changed." in page
        # Done first (the merge then took it in), told the player is gone, or no such player by the time the page looked.
        assert (done in page) + told + (results[1].status_code == 404) == 1, f"round {round_}: {results[1].text[:300]}"
        assert not Player.objects.filter(pk=drop.pk).exists()
        assert not Claim.objects.filter(player_id=drop.pk).exists()


@pytest.mark.parametrize("change", ["rename", "archive", "claim"])
def test_a_change_reaching_a_player_merged_away_a_moment_before_changes_nothing(league, make_user, change):
    """The ordering the race above leaves to chance, made certain: the page read the player, then a merge took them in
    before the change reached its lock. Before, the rename and the archive said they were done, and the claim failed."""
    owner = make_user("olive", league, Role.OWNER)
    keep, drop = people_services.add_guest(league=league, name="Kim"), people_services.add_guest(league=league, name="Kimberly")
    people_services.merge_players(keep=keep, drop=drop, by=owner)
    with pytest.raises(Gone, match=r"Kimberly was merged into another player meanwhile: nothing was changed\."):
        if change == "rename":
            people_services.rename(player=drop, name="Kimmy")
        elif change == "archive":
            people_services.set_archived(player=drop, archived=True)
        else:
            people_services.claim_player(player=drop, user=make_user("vic", league, Role.VIEWER))
    assert list(Player.objects.filter(league=league).values_list("name", "archived")) == [("Kim", False)]
    assert not Claim.objects.exists()


def test_a_claim_answered_by_two_owners_at_once_is_answered_once(league, make_user):
    """The second owner's answer reaches a claim the first one's took away: said so, not declined or confirmed again."""
    first, second = make_user("olive", league, Role.OWNER), make_user("bea", league, Role.OWNER)
    claim = people_services.claim_player(
        player=people_services.add_guest(league=league, name="Gus"), user=make_user("vic", league, Role.VIEWER)
    )
    people_services.decide_claim(claim=claim, confirm=False, by=first)
    with pytest.raises(Gone, match=r"Another owner answered this claim meanwhile: nothing was changed\."):
        people_services.decide_claim(claim=claim, confirm=True, by=second)
    assert Player.objects.get(name="Gus").user_id is None


def test_an_undo_refused_and_then_deleted_with_its_game_is_told_the_game_was_deleted(league, make_user):
    """The owner's delete lands between the undo's refusal and its answer, which reads the game again to show it."""
    scorer = _client(make_user("sam", league, Role.SCORER))
    game = _game_with_hands(league, "g", 2)
    refuse = table_services.undo_hand

    def refused_then_deleted(*, game: Game, number: int):
        try:
            return refuse(game=game, number=number)
        finally:
            Game.objects.filter(pk=game.pk).delete()

    with mock.patch.object(table_services, "undo_hand", refused_then_deleted):
        response = _undo(scorer, game, 1, 0)  # Hand 1 is not the last hand: refused.
    assert response.status_code == 200 and response["HX-Redirect"] == league.get_absolute_url()
    assert DELETED in _shown_after(scorer, response)
