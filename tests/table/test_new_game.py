"""Starting a game from the league page: players, seating, solo or in teams, target, first dealer."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scores.leagues.models import Player, Role
from scores.table.models import Game, Seat
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def new_game_url(league) -> str:
    return reverse("scores:game_new", args=[league.slug])


def seated(game: Game) -> list[str]:
    return [seat.player.name for seat in Seat.objects.filter(game=game).select_related("player").order_by("position")]


def form_data(**overrides) -> dict:
    data = {"mode": "solo", "target": "7", "first_dealer": "1", "team1": "Team 1", "team2": "Team 2"}
    data.update(overrides)
    return data


def test_league_page_offers_new_game_to_scorers_only(client, make_user, league):
    make_user("sam", league, Role.SCORER)
    make_user("vic", league, Role.VIEWER)
    client.login(username="sam", password=PASSWORD)
    assert "New game" in client.get(league.get_absolute_url()).content.decode()
    client.login(username="vic", password=PASSWORD)
    assert "New game" not in client.get(league.get_absolute_url()).content.decode()
    assert client.get(new_game_url(league)).status_code == 404
    assert client.post(new_game_url(league), form_data(new_1="Ann", new_2="Bob")).status_code == 404
    assert not Game.objects.exists()


def test_non_member_gets_404_and_anonymous_is_sent_to_log_in(client, make_user, league):
    make_user("stranger", None)
    response = client.get(new_game_url(league))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.login(username="stranger", password=PASSWORD)
    assert client.get(new_game_url(league)).status_code == 404


def test_new_names_become_league_players_seated_in_list_order(scorer, league):
    response = scorer.post(new_game_url(league), form_data(new_1="Ann", new_2="Bob", new_3="Cat", new_4="Dan"))
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert seated(game) == ["Ann", "Bob", "Cat", "Dan"]
    assert sorted(Player.objects.filter(league=league).values_list("name", flat=True)) == ["Ann", "Bob", "Cat", "Dan"]
    assert game.target == 7 and not game.partnership


def test_league_players_and_new_names_together_with_seat_numbers_reordering(scorer, league):
    ann = Player.objects.create(league=league, name="Ann")
    bob = Player.objects.create(league=league, name="Bob")
    Player.objects.create(league=league, name="Zed")  # Not picked: not seated.
    data = form_data(players=[ann.pk, bob.pk], new_1="Cat", **{f"seat_{bob.pk}": "1", "new_seat_1": "2"})
    scorer.post(new_game_url(league), data)
    # Bob and Cat have seats 1 and 2; Ann, without a number, sits after them.
    assert seated(Game.objects.get()) == ["Bob", "Cat", "Ann"]


def test_a_seat_number_wins_and_players_without_one_follow_in_list_order(scorer, league):
    ann = Player.objects.create(league=league, name="Ann")
    bob = Player.objects.create(league=league, name="Bob")
    scorer.post(new_game_url(league), form_data(players=[ann.pk, bob.pk], new_1="Cat", new_2="Dan", new_seat_2="1"))
    # The page's script numbers every filled row in list order; a row it never numbered still sits in list order.
    assert seated(Game.objects.get()) == ["Dan", "Ann", "Bob", "Cat"]


def test_partnership_seats_partners_opposite_under_team_names(scorer, league):
    data = form_data(mode="2x2", team1="Hearts", team2="Spades", new_1="Ann", new_2="Bob", new_3="Cat", new_4="Dan")
    scorer.post(new_game_url(league), data)
    game = Game.objects.get()
    assert game.partnership
    teams = {seat.player.name: seat.side.name for seat in Seat.objects.filter(game=game).select_related("player", "side")}
    assert teams == {"Ann": "Hearts", "Cat": "Hearts", "Bob": "Spades", "Dan": "Spades"}


def test_other_target_and_first_dealer_turn_the_table(scorer, league):
    data = form_data(target="other", other_target="9", first_dealer="3", new_1="Ann", new_2="Bob", new_3="Cat", new_4="Dan")
    scorer.post(new_game_url(league), data)
    game = Game.objects.get()
    assert game.target == 9
    assert seated(game) == ["Cat", "Dan", "Ann", "Bob"]  # Cat deals first, clockwise order kept.


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (form_data(new_1="Ann"), "a game needs 2 to 7 players, got 1"),
        (form_data(new_1="Ann", new_2="ann"), "is seated twice"),
        (form_data(target="other", new_1="Ann", new_2="Bob"), "Type the target, or pick one."),
        (form_data(mode="2x2", new_1="Ann", new_2="Bob", new_3="Cat"), "2 teams of 2 need exactly 4 players; 3 are seated."),
        (form_data(first_dealer="4", new_1="Ann", new_2="Bob"), "There are only 2 players."),
        (form_data(new_1="Ann", new_2="Bob", new_seat_1="1", new_seat_2="1"), "Two players have the same seat number."),
        (form_data(target="8", new_1="Ann", new_2="Bob"), "Select a valid choice."),
    ],
)
def test_bad_input_is_shown_and_starts_nothing(scorer, league, data, message):
    response = scorer.post(new_game_url(league), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()
    assert not Player.objects.exists()


def test_error_keeps_the_choices_made(scorer, league):
    ann = Player.objects.create(league=league, name="Ann")
    response = scorer.post(new_game_url(league), form_data(players=[ann.pk], mode="2x2", new_1="Bob", target="11"))
    html = response.content.decode()
    assert "2 teams of 2 need exactly 4 players; 2 are seated." in html
    assert f'value="{ann.pk}" checked' in html
    assert 'value="Bob"' in html
    assert 'value="2x2" checked' in html
    assert 'value="11" checked' in html


def test_a_player_id_no_row_can_have_is_refused_with_a_message(scorer, league):
    url = reverse("scores:game_new", args=[league.slug])
    response = scorer.post(url, {"players": ["99999999999999999999999999"], "mode": "solo", "target": "7", "new_1": "Ann", "new_2": "Bob"})
    assert response.status_code == 200
    assert "is not a valid value" in response.content.decode()
    assert not Game.objects.exists()


# Fields shown for their choice only, and league players found by typing.


def test_the_form_marks_fields_for_their_choice_and_offers_the_league_players_to_type(scorer, league):
    for name in ("Ann", "Bob & Co"):
        Player.objects.create(league=league, name=name)
    html = scorer.get(new_game_url(league)).content.decode()
    assert 'class="row g-2 mb-3 team-fields" data-shown-when="mode=2x2|3x2|2x3"' in html
    assert 'class="mb-3 other-target" data-shown-when="target=other"' in html
    # Without JavaScript the finder stays hidden and every player is listed; with it, the list narrows as one types.
    assert '<div class="mb-2 player-finder" hidden>' in html and 'list="league-players"' in html
    assert '<option value="Ann"></option><option value="Bob &amp; Co"></option>' in html
    assert 'data-name="Bob &amp; Co"' in html


def test_a_league_without_players_offers_no_finder(scorer, league):
    assert "player-finder" not in scorer.get(new_game_url(league)).content.decode()


@pytest.mark.parametrize("other_target", ["500", "abc", "1"])
def test_what_is_left_in_other_target_does_not_matter_when_a_target_is_picked(scorer, league, other_target):
    response = scorer.post(new_game_url(league), form_data(target="11", other_target=other_target, new_1="Ann", new_2="Bob"))
    game = Game.objects.get()
    assert response.status_code == 302 and game.target == 11


def test_a_wrong_other_target_is_still_refused_when_other_is_picked(scorer, league):
    html = scorer.post(new_game_url(league), form_data(target="other", other_target="1000", new_1="Ann", new_2="Bob")).content.decode()
    assert "Ensure this value is less than or equal to" in html and not Game.objects.exists()


def test_team_names_do_not_matter_in_solo_play_and_are_checked_in_partnership(scorer, league):
    too_long = "T" * 41
    players = {"new_1": "Ann", "new_2": "Bob", "new_3": "Cat", "new_4": "Dan"}
    refused = scorer.post(new_game_url(league), form_data(mode="2x2", team1=too_long, **players))
    assert "The name is 41 characters long; at most 40 fit." in refused.content.decode() and not Game.objects.exists()
    response = scorer.post(new_game_url(league), form_data(mode="solo", team1=too_long, **players))
    assert response.status_code == 302 and not Game.objects.get().partnership


def test_the_seating_preview_is_the_servers_seating_with_teams_and_the_first_dealer(scorer, league, django_assert_num_queries):
    """The new-game page's "Seating" list comes from the form's own rule (htmx): numbered players first, by number,
    the rest after them in list order; partners every second seat; who deals first marked. A game started from the
    same choices sits so."""
    ann = Player.objects.create(league=league, name="Ann")
    choices = form_data(
        players=[ann.pk], **{f"seat_{ann.pk}": "3"}, new_1="Bob", new_2="Cat", new_3="Dan", new_seat_3="1", mode="2x2", first_dealer="2"
    )
    choices.update(team1="Red", team2="Blue")
    with django_assert_num_queries(5):  # The session, the user, the league with the membership, its players, those ticked.
        response = scorer.get(new_game_url(league), {**choices, "part": "seating"}, headers={"HX-Request": "true"})
    items = [" ".join(item.split()) for item in re.findall(r"<li>(.*?)</li>", response.content.decode(), re.DOTALL)]
    assert items == ["Seat 1: Dan (Red)", "Seat 2: Ann (Blue), deals first", "Seat 3: Bob (Red)", "Seat 4: Cat (Blue)"]
    scorer.post(new_game_url(league), choices)
    game = Game.objects.get()
    assert seated(game) == ["Ann", "Bob", "Cat", "Dan"]  # Ann deals first: the table turned, partners kept.
    assert sorted(game.sides.values_list("name", flat=True)) == ["Blue", "Red"]


def test_the_seating_preview_before_anyone_is_seated_says_so(scorer, league):
    response = scorer.get(new_game_url(league), {"part": "seating"}, headers={"HX-Request": "true"})
    assert "<li>" not in response.content.decode() and "Nobody is seated yet." in response.content.decode()
