"""A card night whose rounds are a number of hands (each table's game ends after them, the side ahead winning, and the
night's standings rank by points), and a table's result recorded from paper by its scorer or an owner."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scores.leagues.models import Role
from scores.nights import selectors as nights_selectors
from scores.standings.models import PlayerRating
from scores.standings.selectors.standings import standings
from scores.table import selectors
from scores.table import services as table_services
from scores.table.models import Game, Seat
from tests.conftest import hand
from tests.nights.test_nights import EIGHT, _start, _tables
from tests.totals import kept, recount

pytestmark = pytest.mark.django_db


def _night_of_hands(owner_client, league, hands="4"):
    response = _start(owner_client, league, guests="\n".join(EIGHT), hands_per_round=hands, rounds="2")
    assert response.status_code == 302
    game = Game.objects.get(round__number=1, table=1)
    return game.round.night


def _paper_url(game: Game) -> str:
    return reverse("scores:paper_result", args=[game.league.slug, game.pk])


def _sides(game: Game) -> tuple[str, ...]:
    return selectors.load_game(game, hands=False).table.sides


def _paper(client, game: Game, scores: tuple[int, ...], hands: str = "", **fields):
    data = {f"side_{i}": str(score) for i, score in enumerate(scores)} | {"hands": hands, "version": str(game.version)} | fields
    return client.post(_paper_url(game), data)


def test_the_night_keeps_its_number_of_hands_and_each_table_plays_it(owner_client, league):
    night = _night_of_hands(owner_client, league)
    assert night.hands_per_round == 4 and night.rules.hands == 4
    assert all(game.hands_per_round == 4 for game in _tables(night, 1))
    page = owner_client.get(_tables(night, 1)[0].get_absolute_url()).text
    assert '<p class="small text-muted mb-2" id="house-rules">4-point · 4 hands, the side ahead wins</p>' in page  # No target.


@pytest.mark.parametrize("hands", ["0", "31", "four"])
def test_a_number_of_hands_out_of_range_is_refused_in_words_and_starts_nothing(owner_client, league, hands):
    response = _start(owner_client, league, guests="\n".join(EIGHT), hands_per_round=hands)
    assert response.status_code == 400
    assert response.context["form"].errors["hands_per_round"] == ["A round is 1 to 30 hands; leave it empty to play to the target."]
    assert not Game.objects.exists()


def test_a_table_ends_after_its_hands_with_the_side_ahead_and_the_page_counts_down(owner_client, league):
    night = _night_of_hands(owner_client, league, hands="2")
    game = _tables(night, 1)[0]
    state = selectors.load_game(game, hands=False)
    us, them = state.table.sides
    ann = next(seat for seat in state.table.seats if state.table.side(seat) == us)
    page = owner_client.get(game.get_absolute_url())
    assert "2 hands left" in page.text
    table_services.record_hand(game=game, hand=hand(ann, 2, us, us, them))  # us 2, them 1
    assert "1 hand left" in owner_client.get(game.get_absolute_url()).text
    assert "1 hand left" in owner_client.get(night.get_absolute_url()).text
    table_services.record_hand(game=game, hand=hand(ann, 2, them, them, us))  # set: us 1 - 2 = -1... them 3
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == them


def test_a_tie_after_the_hands_is_played_off_and_the_page_says_so(owner_client, league):
    night = _night_of_hands(owner_client, league, hands="1")
    game = _tables(night, 1)[0]
    state = selectors.load_game(game, hands=False)
    us, them = state.table.sides
    ann = next(seat for seat in state.table.seats if state.table.side(seat) == us)
    table_services.record_hand(game=game, hand=hand(ann, 2, us, us, them, them))  # 2 all
    game.refresh_from_db()
    assert not game.is_finished
    assert "Tied after the last hand: one more hand at a time until a side leads." in owner_client.get(game.get_absolute_url()).text


def test_the_standings_of_a_night_of_hands_rank_by_points_then_games_won(owner_client, league):
    night = _night_of_hands(owner_client, league, hands="1")
    first, second = _tables(night, 1)
    _paper(owner_client, first, (2, 1))  # The winners: 2 points.
    _paper(owner_client, second, (1, 4))  # The winners: 4 points.
    standings = nights_selectors.night_context(night)["standings"]
    assert [row["points"] for row in standings] == [4, 4, 2, 2, 1, 1, 1, 1]
    assert standings[0]["rank"] == 1 and standings[2]["rank"] == 3 and standings[2]["wins"] == 1
    # By games won first, a night to the target would rank the same wins by points: 4, 4, 2, 2 all with a win.
    assert {row["wins"] for row in standings[:4]} == {1}


def test_a_scorer_records_a_tables_result_from_paper_and_it_counts_in_standings_and_ratings(owner_client, league, client, make_user):
    night = _night_of_hands(owner_client, league, hands="8")
    game = _tables(night, 1)[0]
    sam = make_user("sam", league, Role.SCORER)
    Game.objects.filter(pk=game.pk).update(scorer=sam)
    client.force_login(sam)
    page = client.get(game.get_absolute_url())
    assert "Record the result from paper" in page.text
    response = _paper(client, game, (9, 5), hands="8")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_finished and game.on_paper and game.paper_hands == 8 and not game.hands.exists()
    assert game.winner.name == _sides(game)[0]
    seats = list(Seat.objects.filter(game=game).values_list("points", "hands", "pitched", "paper_games", "paper_points"))
    assert sorted(seats) == [(5, 0, 0, 1, 5), (5, 0, 0, 1, 5), (9, 0, 0, 1, 9), (9, 0, 0, 1, 9)]
    assert PlayerRating.objects.filter(game=game).count() == 4
    rows = {row.name: row for row in standings(league)}
    winners = [name for name in rows if rows[name].wins]
    assert len(rows) == 4 and len(winners) == 2
    assert all((row.games, row.points, row.hands, row.points_per_hand) == (1, 9, 0, None) for name, row in rows.items() if name in winners)
    assert all(row.rating is not None for row in rows.values())
    assert kept(league) == recount(league)  # The season's totals kept as the seats count them.
    shown = client.get(game.get_absolute_url()).text
    assert "Recorded from paper, after 8 hands." in shown and "the game was recorded from paper" in shown
    us, them = _sides(game)
    share = client.get(game.get_absolute_url()).context["share_text"]
    assert f"Final scores: {us} 9, {them} 5. Recorded from paper, after 8 hands." in share
    Game.objects.filter(pk=game.pk).update(share_token="paper-watch")
    watched = client.get(reverse("scores:watch", args=["paper-watch"]))
    assert watched.status_code == 200 and "Recorded from paper, after 8 hands." in watched.text
    night_page = owner_client.get(night.get_absolute_url()).text
    assert "recorded from paper" in night_page
    assert [row["total"] for row in nights_selectors.night_context(night)["rounds"][0].tables[0].sides] == [9, 5]
    league_page = owner_client.get(league.get_absolute_url()).text
    assert "Games recorded from paper count in games, wins and points" in league_page
    games_page = owner_client.get(reverse("scores:game_list", args=[league.slug])).text
    assert re.search(r" won\s+· recorded from paper</span>", games_page)
    seat = Seat.objects.filter(game=game).first()
    assert "recorded from paper" in owner_client.get(reverse("scores:player_detail", args=[league.slug, seat.player_id])).text


@pytest.mark.parametrize(
    ("scores", "hands", "field", "says"),
    [
        ((5, 5), "8", None, "a finished game has one side ahead"),
        ((6, 2), "7", "hands", "this game ends after 8 hands, so it cannot have ended after 7"),
        ((40, 2), "8", "side_0", "40 cannot be scored in 8 hands: a hand awards at most 4"),
        ((6, 2), "0", "hands", "The number of hands is a whole number from 1 to 500, or leave it empty."),
        ((6, 2), "501", "hands", "The number of hands is a whole number from 1 to 500, or leave it empty."),
        (("six", 2), "", "side_0", "is a whole number from -9999 to 9999."),
        (("", 2), "", "side_0", "Give the final score of"),
    ],
)
def test_a_paper_result_the_rules_could_not_end_with_is_refused_in_words_and_changes_nothing(
    owner_client, league, scores, hands, field, says
):
    night = _night_of_hands(owner_client, league, hands="8")
    game = _tables(night, 1)[0]
    response = _paper(owner_client, game, scores, hands=hands)
    assert response.status_code == 400
    form = response.context["paper_form"]
    errors = form.non_field_errors() if field is None else form.errors[field]
    assert any(says in error for error in errors), form.errors
    game.refresh_from_db()
    assert not game.is_finished and not game.on_paper and game.version == 0


def test_a_paper_result_to_the_target_needs_the_winner_at_the_target(owner_client, league, four_player_game):
    response = _paper(owner_client, four_player_game, (6, 3, 2, 1))
    assert response.status_code == 400
    assert "the game is played to 7, so the winner has at least 7, not 6" in response.text
    assert _paper(owner_client, four_player_game, (7, 3, 2, 1)).status_code == 302
    four_player_game.refresh_from_db()
    assert four_player_game.winner.name == "Ann" and four_player_game.paper_hands is None


def test_a_game_with_hands_or_finished_or_changed_meanwhile_takes_no_paper_result(owner_client, league, four_player_game):
    table_services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    response = _paper(owner_client, four_player_game, (11, 0, 0, 0))
    assert response.status_code == 302
    assert "The game has hands recorded on a phone, so it cannot take a result from paper" in owner_client.get(response.url).text
    four_player_game.refresh_from_db()
    assert not four_player_game.on_paper and four_player_game.hands.count() == 1
    other = table_services.start_game(league=league, seats=["Ann", "Bob"], code="other", rules=four_player_game.rules)
    stale = _paper(owner_client, other, (11, 0), version="7")
    assert stale.status_code == 302 and not Game.objects.get(pk=other.pk).on_paper
    assert _paper(owner_client, other, (11, 0)).status_code == 302
    again = _paper(owner_client, Game.objects.get(pk=other.pk), (12, 0))
    assert "The game is finished already, so nothing was recorded." in owner_client.get(again.url).text
    assert Seat.objects.get(game=other, player__name="Ann").points == 11


def test_a_viewer_or_another_scorer_may_not_record_a_tables_paper_result(owner_client, league, client, make_user):
    night = _night_of_hands(owner_client, league)
    game = _tables(night, 1)[0]
    client.force_login(make_user("vic", league, Role.VIEWER))
    assert _paper(client, game, (9, 5)).status_code == 404
    client.force_login(make_user("sue", league, Role.SCORER))  # Not this table's scorer.
    assert _paper(client, game, (9, 5)).status_code == 404
    assert not Game.objects.get(pk=game.pk).on_paper


def test_record_a_game_played_on_paper_from_the_league_page(owner_client, league):
    assert "Record a game played on paper" in owner_client.get(league.get_absolute_url()).text
    new = owner_client.get(reverse("scores:game_new", args=[league.slug]) + "?paper=1")
    assert "Next: the final scores" in new.text
    data = {"paper": "1", "mode": "solo", "target": "7", "first_dealer": "1", "new_1": "Ann", "new_2": "Bob", "new_3": "Cat"}
    started = owner_client.post(reverse("scores:game_new", args=[league.slug]), data)
    assert started.status_code == 302 and started.url.endswith("?paper=1")
    game = Game.objects.get(league=league)
    page = owner_client.get(started.url)
    assert '<details class="mb-3 paper-result" open>' in page.text
    assert _paper(owner_client, game, (7, 9, 3), hands="9").status_code == 302
    game.refresh_from_db()
    assert game.on_paper and game.winner.name == "Bob"
