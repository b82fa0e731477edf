"""A league's people: guests, a member's claim of a guest's games that an owner confirms, renaming, archiving, and
merging two players who are one person, previewed first."""

from __future__ import annotations

import datetime
import html

import pytest
from django.urls import reverse

from scores.common.refusals import Refused
from scores.engine import planner, rules
from scores.leagues.models import Player, Role
from scores.nights import services as nights_services
from scores.nights.forms import NightForm
from scores.people import selectors as people_selectors
from scores.people import services
from scores.people.models import Claim
from scores.standings import selectors as standings_selectors
from scores.standings import services as standings_services
from scores.standings.models import PlayerRating
from scores.standings.selectors.standings import standings
from scores.table import selectors
from scores.table import services as table_services
from scores.table.models import Game, Seat, Side
from tests import small_league as leagues
from tests.conftest import hand
from tests.totals import kept, recount

pytestmark = pytest.mark.django_db


def _people(client, league):
    return client.get(reverse("scores:people", args=[league.slug]))


def test_a_scorer_adds_a_guest_and_a_name_the_league_has_is_refused(client, league, make_user):
    client.force_login(make_user("sam", league, Role.SCORER))
    response = client.post(reverse("scores:guest_new", args=[league.slug]), {"name": "  Gus  "})
    assert response.status_code == 302
    gus = Player.objects.get(league=league)
    assert gus.name == "Gus" and gus.is_guest
    response = client.post(reverse("scores:guest_new", args=[league.slug]), {"name": "gus"})
    assert response.status_code == 400 and "The league already has a player called Gus." in html.unescape(response.text)
    response = client.post(reverse("scores:guest_new", args=[league.slug]), {"name": ""})
    assert response.status_code == 400 and "This field is required." in html.unescape(response.text)
    assert Player.objects.count() == 1
    assert "guest" in html.unescape(_people(client, league).text)


def test_a_member_claims_a_guest_and_an_owner_confirms(client, league, owner, make_user):
    leagues.build(league)
    vic = make_user("vic", league, Role.VIEWER)
    ann = Player.objects.get(league=league, name="Ann")
    client.force_login(vic)
    page = client.get(reverse("scores:player_detail", args=[league.slug, ann.pk]))
    assert "These are my games: claim Ann" in html.unescape(page.text)
    assert client.post(reverse("scores:player_claim", args=[league.slug, ann.pk])).status_code == 302
    claim = Claim.objects.get(player=ann, user=vic)
    assert Player.objects.get(pk=ann.pk).is_guest  # Nothing is theirs until an owner confirms.
    page = client.get(reverse("scores:player_detail", args=[league.slug, ann.pk]))
    assert "You asked for these games to be yours" in html.unescape(page.text)
    other = make_user("otto", league, Role.SCORER)
    services.claim_player(player=ann, user=other)  # Two people say they are Ann: the owner picks.
    client.force_login(owner)
    assert "vic says Ann's games are theirs." in html.unescape(_people(client, league).text)
    response = client.post(reverse("scores:claim_decide", args=[league.slug, claim.pk]), {"decision": "confirm"}, follow=True)
    assert "Ann's games are now vic's." in html.unescape(response.text)
    assert Player.objects.get(pk=ann.pk).user == vic and not Claim.objects.exists()
    assert {row.name for row in standings(league)} >= {"Ann"}  # Her history is the same history.


def test_an_owner_declines_a_claim(client, league, owner, make_user):
    vic = make_user("vic", league, Role.VIEWER)
    gus = services.add_guest(league=league, name="Gus")
    claim = services.claim_player(player=gus, user=vic)
    client.force_login(owner)
    client.post(reverse("scores:claim_decide", args=[league.slug, claim.pk]), {"decision": "decline"})
    assert not Claim.objects.exists() and Player.objects.get(pk=gus.pk).is_guest
    response = client.post(reverse("scores:claim_decide", args=[league.slug, 99]), {"decision": "confirm"})
    assert response.status_code == 404


def test_a_claim_is_refused_for_a_player_who_is_someones_and_for_a_member_who_is_a_player(league, make_user):
    vic, sam = make_user("vic", league, Role.VIEWER), make_user("sam", league, Role.SCORER)
    gus, hal = services.add_guest(league=league, name="Gus"), services.add_guest(league=league, name="Hal")
    Player.objects.filter(pk=gus.pk).update(user=vic)
    gus.refresh_from_db()
    with pytest.raises(Refused, match=r"Gus's games are already someone's\."):
        services.claim_player(player=gus, user=sam)
    with pytest.raises(Refused, match=r"You are Gus in this league: ask an owner to merge Hal into Gus instead\."):
        services.claim_player(player=hal, user=vic)
    assert not Claim.objects.exists()


def test_a_claim_confirmed_after_the_member_became_another_player_is_refused(league, owner, make_user):
    vic = make_user("vic", league, Role.VIEWER)
    gus, hal = services.add_guest(league=league, name="Gus"), services.add_guest(league=league, name="Hal")
    first, second = services.claim_player(player=gus, user=vic), services.claim_player(player=hal, user=vic)
    services.decide_claim(claim=first, confirm=True, by=owner)
    assert not Claim.objects.filter(pk=second.pk).exists()  # Vic's other claims go: one player a member.
    with pytest.raises(Refused, match="already someone's"):
        services.decide_claim(claim=first, confirm=True, by=owner)


def test_only_an_owner_answers_a_claim(client, league, make_user):
    vic = make_user("vic", league, Role.VIEWER)
    sam = make_user("sam", league, Role.SCORER)
    claim = services.claim_player(player=services.add_guest(league=league, name="Gus"), user=vic)
    client.force_login(sam)
    assert client.post(reverse("scores:claim_decide", args=[league.slug, claim.pk]), {"decision": "confirm"}).status_code == 404
    with pytest.raises(Refused, match="no longer an owner"):
        services.decide_claim(claim=claim, confirm=True, by=sam)
    assert Player.objects.get(name="Gus").is_guest


def test_an_owner_renames_a_player_and_a_name_taken_is_refused(owner_client, league):
    game = table_services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(), code="solo")
    ann = Player.objects.get(name="Ann")
    url = reverse("scores:player_rename", args=[league.slug, ann.pk])
    assert owner_client.post(url, {"name": "bob"}).status_code == 400
    assert "The league already has a player called Bob." in html.unescape(owner_client.post(url, {"name": "bob"}).text)
    assert owner_client.post(url, {"name": "x" * 41}).status_code == 400
    response = owner_client.post(url, {"name": "Anne"}, follow=True)
    assert "Ann is now Anne." in html.unescape(response.text)
    assert selectors.load_game(game).table.seats == ("Anne", "Bob")  # The solo game's side too: it can still be scored.
    table_services.record_hand(game=game, hand=hand("Anne", 2, "Anne", "Anne"))


def test_an_archived_player_leaves_the_pickers_not_the_history(owner_client, league):
    leagues.build(league)
    cat = Player.objects.get(name="Cat")
    assert owner_client.post(reverse("scores:player_archive", args=[league.slug, cat.pk]), {"archived": "yes"}).status_code == 302
    assert Player.objects.get(pk=cat.pk).archived
    assert cat not in NightForm(league=league).fields["players"].queryset
    assert "Cat" in {row.name for row in standings(league)}
    assert "archived" in html.unescape(owner_client.get(reverse("scores:player_detail", args=[league.slug, cat.pk])).text)
    response = owner_client.post(reverse("scores:player_archive", args=[league.slug, cat.pk]), {"archived": "perhaps"}, follow=True)
    assert "Nothing changed" in html.unescape(response.text) and Player.objects.get(pk=cat.pk).archived
    owner_client.post(reverse("scores:player_archive", args=[league.slug, cat.pk]), {"archived": "no"})
    assert cat in NightForm(league=league).fields["players"].queryset


def _preview(client, league, keep, drop):
    return client.get(reverse("scores:merge", args=[league.slug]), {"keep": keep.pk, "drop": drop.pk})


def test_merging_two_players_previews_first_then_moves_games_ratings_and_head_to_head(owner_client, league):
    leagues.build(league)
    # "Dave" is Dan entered under another name, in a later game against Ann.
    dave_game = table_services.start_game(
        league=league, seats=["Ann", "Dave"], rules=rules.Rules(), code="dave", played_on=datetime.date(2026, 2, 10)
    )
    for _ in range(2):
        table_services.record_hand(game=dave_game, hand=hand("Dave", 4, "Dave", "Dave", "Dave", "Dave"))
    dan, dave = Player.objects.get(name="Dan"), Player.objects.get(name="Dave")
    response = _preview(owner_client, league, dan, dave)
    assert response.status_code == 200
    assert "Dave's 1 game becomes Dan's." in html.unescape(response.text) and "Dan then has 2 games." in html.unescape(response.text)
    assert Player.objects.filter(name="Dave").exists()  # A preview changes nothing.
    response = owner_client.post(reverse("scores:merge", args=[league.slug]), {"keep": dan.pk, "drop": dave.pk}, follow=True)
    assert "Dave is merged into Dan." in html.unescape(response.text)
    assert not Player.objects.filter(name="Dave").exists()
    assert sorted(Seat.objects.filter(player=dan).values_list("game__code", flat=True)) == ["dave", "g2"]
    assert Side.objects.get(game=dave_game, position=1).name == "Dan"  # The solo side bears the kept name.
    rows = {row.name: row for row in standings(league)}
    assert (rows["Dan"].games, rows["Dan"].wins, rows["Dan"].streak) == (2, 2, 2)
    head = {r["player"].name: (r["won"], r["lost"]) for r in standings_selectors.player_context(dan)["head_to_head"]}
    assert head == {"Ann": (2, 0), "Cat": (1, 0)}
    # The ratings are those of the league rated from scratch with Dan in both games.
    merged = sorted(PlayerRating.objects.values_list("game__code", "player__name", "mu_after", "sigma_after"))
    standings_services.update_ratings(league=league)
    assert sorted(PlayerRating.objects.values_list("game__code", "player__name", "mu_after", "sigma_after")) == merged
    assert kept(league) == recount(league)


def test_two_players_who_sat_at_one_table_are_not_merged(owner_client, league):
    leagues.build(league)
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    response = _preview(owner_client, league, ann, bob)
    refusal = "Ann and Bob played in the same game (g1): they cannot be one person."
    assert response.status_code == 409 and refusal in html.unescape(response.text)
    response = owner_client.post(reverse("scores:merge", args=[league.slug]), {"keep": ann.pk, "drop": bob.pk})
    assert response.status_code == 409
    assert Player.objects.filter(name="Bob").exists() and Seat.objects.filter(player=bob).count() == 3


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"keep": "1"}, "This field is required."),
        ({"keep": "x", "drop": "1"}, "Select a valid choice. That choice is not one of the available choices."),
        ({"keep": "1", "drop": "1"}, "Pick two different players."),
    ],
)
def test_a_bad_merge_is_refused_with_what_is_wrong(owner_client, league, params, message):
    gus = services.add_guest(league=league, name="Gus")
    params = {key: str(gus.pk) if value == "1" else value for key, value in params.items()}
    response = owner_client.get(reverse("scores:merge", args=[league.slug]), params)
    assert response.status_code == 400 and message in html.unescape(response.text)
    assert Player.objects.count() == 1


def test_players_at_one_round_of_a_card_night_or_with_a_game_in_progress_are_not_merged(league, owner):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    players = [services.add_guest(league=league, name=name) for name in names]
    night = nights_services.start_night(
        league=league,
        name="Friday",
        played_on=datetime.date(2026, 3, 6),
        seating=planner.Seating(leftover="byes"),
        rounds=2,
        game_rules=rules.Rules(),
        players=players,
        by=owner,
    )
    bye = night.played_rounds.get().byes.get().player
    seated = Player.objects.exclude(pk=bye.pk).first()
    assert people_selectors.merge_refusal(seated, bye) == people_selectors.MergeRefusal("round")
    assert "at the same round of a card night" in str(services.MergeRefused(seated, bye, people_selectors.MergeRefusal("round")))
    gus = services.add_guest(league=league, name="Gus")
    assert people_selectors.merge_refusal(gus, seated) == people_selectors.MergeRefusal("in_progress")
    with pytest.raises(Refused, match=f"^{seated.name} has a game in progress: merge them when it is over.$"):
        services.merge_players(keep=gus, drop=seated, by=owner)
    assert Seat.objects.filter(player=seated).count() == 1


def test_only_an_owner_merges_renames_or_archives(client, league, make_user):
    client.force_login(make_user("sam", league, Role.SCORER))
    gus, hal = services.add_guest(league=league, name="Gus"), services.add_guest(league=league, name="Hal")
    assert client.post(reverse("scores:merge", args=[league.slug]), {"keep": gus.pk, "drop": hal.pk}).status_code == 404
    assert client.post(reverse("scores:player_rename", args=[league.slug, gus.pk]), {"name": "G"}).status_code == 404
    assert client.post(reverse("scores:player_archive", args=[league.slug, gus.pk]), {"archived": "yes"}).status_code == 404
    assert sorted(Player.objects.values_list("name", "archived")) == [("Gus", False), ("Hal", False)]
    assert Game.objects.count() == 0
