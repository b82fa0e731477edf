"""Deleting a game (its owners', asked first on its page) and changing the rules of a game that has no hand yet: who may,
what leaves the standings, ratings, players' pages and exports, and bad posts refused with nothing changed."""

from __future__ import annotations

import datetime
import json

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.leagues.models import Player, Role
from scores.standings.models import PlayerRating, SeasonTotal
from scores.standings.selectors.standings import standings
from scores.table import services
from scores.table.models import Game, Hand
from tests.conftest import hand
from tests.standings.test_standings_kept_on_players import EVERY_GAME, _play, busy_league
from tests.totals import kept, recount

pytestmark = pytest.mark.django_db


def delete_url(game: Game) -> str:
    return reverse("scores:game_delete", args=[game.league.slug, game.pk])


def rules_url(game: Game) -> str:
    return reverse("scores:game_rules", args=[game.league.slug, game.pk])


def test_an_owner_deletes_a_finished_game_and_it_leaves_standings_ratings_player_pages_and_exports(client, league, make_user):
    for _step in busy_league(league):
        pass
    owner = make_user("olive", league, Role.OWNER)
    client.force_login(owner)
    game = Game.objects.get(league=league, code="flip")  # Dan's, the newest finished game.
    assert game.is_finished
    dan = Player.objects.get(league=league, name="Dan")
    games_before = {row.name: row.games for row in standings(league)}
    response = client.post(delete_url(game), {"version": game.version})
    assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not PlayerRating.objects.filter(game_id=game.pk).exists()
    assert kept(league) == recount(league)  # The kept totals follow the delete.
    assert standings(league) == standings(league, **EVERY_GAME)  # Streaks and ratings too, as worked out from the games.
    games_after = {row.name: row.games for row in standings(league)}
    assert games_after["Dan"] == games_before["Dan"] - 1 and games_after["Ann"] == games_before["Ann"] - 1
    shown = client.get(league.get_absolute_url())
    assert "The game of March 10, 2026 (flip) was deleted." in shown.content.decode()
    page = client.get(reverse("scores:player_detail", args=[league.slug, dan.pk]))
    assert page.status_code == 200 and "flip" not in page.content.decode()
    exported = json.loads(b"".join(client.get(reverse("scores:league_export_json", args=[league.slug])).streaming_content))
    assert "flip" not in [g["id"] for g in exported["games"]]


def test_deleting_a_players_only_game_leaves_no_rating_and_no_totals(client, league, owner_client):
    game = _play(league, "only", datetime.date(2026, 4, 1), ["Zed", "Yan"], "Zed")
    assert SeasonTotal.objects.filter(games__gt=0).count() == 2
    owner_client.post(delete_url(game), {"version": game.version})
    assert sorted(Player.objects.values_list("name", "rating", "streak")) == [("Yan", None, 0), ("Zed", None, 0)]
    assert not SeasonTotal.objects.filter(games__gt=0).exists() and standings(league) == []


def test_an_owner_deletes_a_game_in_progress(owner_client, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    four_player_game.refresh_from_db()
    owner_client.post(delete_url(four_player_game), {"version": four_player_game.version})
    assert not Game.objects.filter(pk=four_player_game.pk).exists() and not Hand.objects.exists()


@pytest.mark.parametrize("role", [Role.SCORER, Role.VIEWER, None])
def test_only_owners_delete_a_game(client, league, make_user, four_player_game, role):
    user = make_user("someone", league, role)
    client.force_login(user)
    response = client.post(delete_url(four_player_game), {"version": four_player_game.version})
    assert response.status_code == 404
    assert Game.objects.filter(pk=four_player_game.pk).exists()


def test_the_delete_question_is_shown_to_owners_only(client, league, make_user, four_player_game):
    for role, shown in ((Role.OWNER, True), (Role.SCORER, False), (Role.VIEWER, False)):
        client.force_login(make_user(f"user-{role}", league, role))
        page = client.get(four_player_game.get_absolute_url()).content.decode()
        assert ("Yes, delete this game" in page) is shown, role


def test_deleting_needs_a_post(owner_client, four_player_game):
    assert owner_client.get(delete_url(four_player_game)).status_code == 405
    assert Game.objects.filter(pk=four_player_game.pk).exists()


UNSAID = "Nothing was deleted: the page did not say which version of the game it showed."
CHANGED = "The game was changed on another phone meanwhile; nothing was changed."


@pytest.mark.parametrize(
    ("post", "said"),
    [({}, UNSAID), ({"version": ""}, UNSAID), ({"version": "x"}, UNSAID), ({"version": "-1"}, UNSAID), ({"version": "9" * 30}, CHANGED)],
)
def test_a_delete_that_does_not_say_the_version_shown_is_refused_in_words(owner_client, four_player_game, post, said):
    response = owner_client.post(delete_url(four_player_game), post, follow=True)
    assert response.status_code == 200
    assert said in response.content.decode()
    assert Game.objects.filter(pk=four_player_game.pk).exists()


def test_a_delete_of_a_game_changed_meanwhile_is_refused(owner_client, four_player_game):
    version = four_player_game.version
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    response = owner_client.post(delete_url(four_player_game), {"version": version}, follow=True)
    assert "The game was changed on another phone meanwhile; nothing was changed." in response.content.decode()
    assert Game.objects.filter(pk=four_player_game.pk).exists()


def test_a_delete_of_another_leagues_game_or_no_game_is_404(owner_client, four_player_game):
    assert owner_client.post(reverse("scores:game_delete", args=["elsewhere", four_player_game.pk]), {"version": 0}).status_code == 404
    assert owner_client.post(reverse("scores:game_delete", args=["thursday", 999999]), {"version": 0}).status_code == 404


def test_a_game_with_no_hand_changes_its_target_and_house_rules(scorer, four_player_game):
    post = {"version": four_player_game.version, "rules-target": "21", "rules-going_out": "made_bid"}
    response = scorer.post(rules_url(four_player_game), post, follow=True)
    four_player_game.refresh_from_db()
    assert four_player_game.rules == rules.Rules(target=21, going_out="made_bid")
    assert "The game is now played by these rules: 4-point · to 21 · set pitcher can&#x27;t go out." in response.content.decode()


def test_the_rules_stay_once_a_hand_is_recorded(scorer, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    four_player_game.refresh_from_db()
    page = scorer.get(four_player_game.get_absolute_url()).content.decode()
    assert "Change the rules (no hand yet)" not in page
    response = scorer.post(rules_url(four_player_game), {"version": four_player_game.version, "rules-target": "21"}, follow=True)
    assert "A hand is recorded already, so the rules stay as they are; nothing was changed." in response.content.decode()
    four_player_game.refresh_from_db()
    assert four_player_game.target == 7


@pytest.mark.parametrize(
    ("post", "said"),
    [
        ({"rules-target": "other", "rules-other_target": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"rules-target": "other", "rules-other_target": ""}, "Type the target, or pick one."),
        ({"rules-target": "12345"}, "Select a valid choice."),
        ({"rules-min_bid": "9"}, "The minimum bid can be at most 4"),
        ({"rules-variant": "custom", "rules-points": []}, "Tick at least one point for a custom game."),
    ],
)
def test_bad_rules_are_refused_in_words_and_nothing_changes(scorer, four_player_game, post, said):
    response = scorer.post(rules_url(four_player_game), {"version": four_player_game.version, **post})
    assert response.status_code == 400
    assert said in response.content.decode()
    four_player_game.refresh_from_db()
    assert four_player_game.rules == rules.Rules()


def test_a_rules_change_without_the_version_is_refused(scorer, four_player_game):
    response = scorer.post(rules_url(four_player_game), {"rules-target": "21"}, follow=True)
    assert "Nothing was changed: the page did not say which version of the game it showed." in response.content.decode()
    four_player_game.refresh_from_db()
    assert four_player_game.target == 7


def test_a_viewer_may_not_change_the_rules(client, league, make_user, four_player_game):
    client.force_login(make_user("vic", league, Role.VIEWER))
    assert client.post(rules_url(four_player_game), {"version": four_player_game.version, "rules-target": "21"}).status_code == 404
    four_player_game.refresh_from_db()
    assert four_player_game.target == 7


def test_the_watch_page_says_when_the_game_last_changed(client, four_player_game):
    page = client.get(reverse("scores:watch", args=[four_player_game.share_token])).content.decode()
    assert "Last changed: " in page


def test_a_finished_game_offers_its_result_to_share(scorer, league):
    game = _play(league, "won", datetime.date(2026, 4, 1), ["Ann", "Bob"], "Ann")
    page = scorer.get(game.get_absolute_url()).content.decode()
    assert "Share the result" in page
    assert "Thursday Pitch, April 1, 2026: Ann won. Final scores: Ann 8, Bob 0. 2 hands played." in page
