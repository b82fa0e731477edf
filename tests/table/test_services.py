"""The service layer: every write replays with the rules engine and stores its results."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.db import IntegrityError, transaction

from scores.engine import rules
from scores.leagues.models import Player
from scores.table import selectors, services
from scores.table.models import Game, Hand, HandScore, Seat
from tests.conftest import hand

pytestmark = pytest.mark.django_db


def totals(game: Game) -> dict[str, int]:
    last = game.hands.order_by("-number").first()
    return {s.side.name: s.total for s in last.scores.select_related("side")} if last else {}


def stored_matches_replay(game: Game) -> None:
    state = selectors.load_game(game)
    result = state.replay()
    for stored, scored in zip(state.hands, result.hands, strict=True):
        rows = {s.side.name: (s.won, s.delta, s.total) for s in stored.scores.select_related("side")}
        assert rows == {side: (scored.won[side], scored.delta[side], scored.totals[side]) for side in state.table.sides}
        assert stored.set == scored.set
    game.refresh_from_db()
    assert (game.winner.name if game.winner else None) == result.winner


def test_start_game_seats_players_clockwise_and_creates_new_names(league):
    Player.objects.create(league=league, name="Ann")
    game = services.start_game(league=league, seats=["ann", " Bob "], played_on=datetime.date(2026, 11, 27), rules=rules.Rules())
    assert [s.player.name for s in game.seats.order_by("position")] == ["Ann", "Bob"]
    assert Player.objects.filter(league=league).count() == 2
    assert game.code == "2026-11-27-1"
    assert [s.name for s in game.sides.all()] == ["Ann", "Bob"]


def test_start_game_turns_the_table_so_the_first_dealer_is_seat_one(league):
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], first_dealer="Cat", rules=rules.Rules())
    assert [s.player.name for s in game.seats.order_by("position")] == ["Cat", "Dan", "Ann", "Bob"]
    services.record_hand(game=game, hand=hand("Ann", 1, "Ann", "Bob"))
    assert game.hands.get().dealer.player.name == "Cat"


def test_start_partnership_game_makes_two_team_sides(league):
    game = services.start_game(
        league=league,
        seats=["Ann", "Bob", "Cat", "Dan"],
        teams=[("Us", ["Ann", "Cat"]), ("Them", ["Bob", "Dan"])],
        rules=rules.Rules(target=11),
    )
    assert game.partnership
    sides = {side.name: sorted(s.player.name for s in side.seats.all()) for side in game.sides.all()}
    assert sides == {"Us": ["Ann", "Cat"], "Them": ["Bob", "Dan"]}


def test_start_game_refuses_what_the_rules_refuse_and_stores_nothing(league):
    with pytest.raises(rules.RulesError, match="seated twice"):
        services.start_game(league=league, seats=["Ann", "ann"], rules=rules.Rules())
    assert not Game.objects.exists() and not Player.objects.exists()


def test_a_game_id_is_unique_in_the_league(league, four_player_game):
    with pytest.raises(rules.RulesError, match="already has a game with id kitchen"):
        services.start_game(league=league, seats=["Ann", "Bob"], code="kitchen", rules=rules.Rules())


def test_record_hand_stores_the_engines_results(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Bob", 3, "Bob", "Cat", None, "Bob"))
    stored = four_player_game.hands.get()
    assert stored.number == 1 and stored.set and stored.dealer.player.name == "Ann"
    assert totals(four_player_game) == {"Ann": 0, "Bob": -3, "Cat": 1, "Dan": 0}
    stored_matches_replay(four_player_game)


def test_the_deal_passes_left_hand_by_hand(four_player_game):
    for _ in range(5):
        services.record_hand(game=four_player_game, hand=hand("Ann", 1, "Bob", "Cat"))
    assert [h.dealer.player.name for h in four_player_game.hands.order_by("number")] == ["Ann", "Bob", "Cat", "Dan", "Ann"]


def test_the_winning_hand_finishes_the_game_and_no_more_hands_are_taken(four_player_game):
    for _ in range(2):
        services.record_hand(game=four_player_game, hand=hand("Dan", 4, "Dan", "Dan", "Dan", "Dan"))
    four_player_game.refresh_from_db()
    assert four_player_game.is_finished and four_player_game.winner.name == "Dan"
    with pytest.raises(rules.RulesError, match="hand 3: the game was already over: Dan won on hand 2"):
        services.record_hand(game=four_player_game, hand=hand("Ann", 1, "Ann", "Ann"))
    assert four_player_game.hands.count() == 2


@pytest.mark.parametrize(
    ("number", "again"),
    [(2, hand("Bob", 3, "Bob", "Bob")), (1, hand("Bob", 3, "Bob", "Bob")), (2, hand("Ann", 2, "Ann", "Ann"))],
    ids=["another hand, the next number", "another hand, the same number", "the same taps, another number"],
)
def test_a_key_already_used_for_another_hand_is_refused_and_stores_nothing(four_player_game, number, again):
    key = uuid.uuid4()
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"), number=1, idempotency_key=key)
    with pytest.raises(services.KeyUsedForAnotherHand, match="Hand 1 was already saved from the same form, so this one was not stored"):
        services.record_hand(game=four_player_game, hand=again, number=number, idempotency_key=key)
    assert list(Hand.objects.filter(game=four_player_game).values_list("number", "pitcher__player__name")) == [(1, "Ann")]
    assert Game.objects.get().version == 1


def test_recording_brings_the_game_it_was_given_up_to_date(four_player_game):
    stale = Game.objects.get(pk=four_player_game.pk)  # Read before another phone's two hands, the second ending the game.
    for _ in range(2):
        services.record_hand(game=four_player_game, hand=hand("Dan", 4, "Dan", "Dan", "Dan", "Dan"))
    assert four_player_game.version == Game.objects.get().version == 2 and four_player_game.is_finished
    with pytest.raises(rules.RulesError, match="hand 3: the game was already over: Dan won on hand 2"):
        services.record_hand(game=stale, hand=hand("Ann", 1, "Ann", "Ann"))
    assert stale.is_finished and stale.winner.name == "Dan"
    assert Game.objects.get().version == 2  # The refused hand changed nothing.


def test_a_repeated_idempotency_key_stores_the_hand_once(four_player_game):
    key = uuid.uuid4()
    first = services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"), number=1, idempotency_key=key)
    again = services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"), number=1, idempotency_key=key)
    assert first.pk == again.pk
    assert [score.total for score in again.side_scores] == [score.total for score in first.side_scores]
    assert four_player_game.hands.count() == 1 and HandScore.objects.count() == 4
    assert Game.objects.get().version == 1  # The retry changed nothing: the watchers' ETag stays.


def test_a_hand_number_already_recorded_is_refused(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"), number=1, idempotency_key=uuid.uuid4())
    with pytest.raises(services.HandAlreadyRecorded, match="Hand 1 was already recorded"):
        services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Bob", "Bob"), number=1, idempotency_key=uuid.uuid4())
    assert four_player_game.hands.count() == 1


def test_a_refused_hand_changes_nothing(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    version = Game.objects.get().version
    with pytest.raises(rules.RulesError, match="hand 2, bid: bid must be 1-4, got 5"):
        services.record_hand(game=four_player_game, hand=hand("Ann", 5, "Ann", "Ann"))
    assert four_player_game.hands.count() == 1 and Game.objects.get().version == version


def test_every_write_bumps_the_game_version(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    services.edit_hand(game=four_player_game, number=1, hand=hand("Ann", 3, "Ann", "Ann"))
    services.delete_hand(game=four_player_game, number=1)
    assert Game.objects.get().version == 3


def test_editing_a_hand_recomputes_every_later_total(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    services.record_hand(game=four_player_game, hand=hand("Bob", 1, "Bob", "Cat"))
    services.edit_hand(game=four_player_game, number=1, hand=hand("Ann", 3, "Ann", "Ann"))  # now set back
    assert totals(four_player_game) == {"Ann": -3, "Bob": 1, "Cat": 1, "Dan": 0}
    assert four_player_game.hands.get(number=1).dealer.player.name == "Ann"
    stored_matches_replay(four_player_game)


def test_an_edit_that_ends_the_game_before_later_hands_is_refused(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"))
    services.record_hand(game=four_player_game, hand=hand("Ann", 1, "Bob", "Cat"))  # Ann set: 3
    services.record_hand(game=four_player_game, hand=hand("Bob", 1, "Bob", "Cat"))
    before = list(HandScore.objects.values_list("hand__number", "side__name", "total"))
    with pytest.raises(rules.RulesError, match="hand 3: the game was already over: Ann won on hand 2"):
        services.edit_hand(game=four_player_game, number=2, hand=hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"))
    assert list(HandScore.objects.values_list("hand__number", "side__name", "total")) == before
    assert not Game.objects.get().is_finished


def test_an_edit_that_takes_away_the_win_reopens_the_game(four_player_game):
    for _ in range(2):
        services.record_hand(game=four_player_game, hand=hand("Dan", 4, "Dan", "Dan", "Dan", "Dan"))
    services.edit_hand(game=four_player_game, number=2, hand=hand("Dan", 4, "Ann", "Dan", "Dan", "Dan"))
    game = Game.objects.get()
    assert not game.is_finished and game.winner is None
    assert totals(game)["Dan"] == 0


def test_deleting_a_hand_renumbers_the_later_ones_and_recomputes(four_player_game):
    for pitcher in ["Ann", "Bob", "Cat"]:
        services.record_hand(game=four_player_game, hand=hand(pitcher, 1, pitcher, pitcher))
    services.delete_hand(game=four_player_game, number=2)
    assert [(h.number, h.pitcher.player.name) for h in Hand.objects.order_by("number")] == [(1, "Ann"), (2, "Cat")]
    assert totals(four_player_game) == {"Ann": 2, "Bob": 0, "Cat": 2, "Dan": 0}
    stored_matches_replay(four_player_game)


def test_deleting_a_hand_that_does_not_exist_is_refused(four_player_game):
    with pytest.raises(rules.RulesError, match="there is no hand 1"):
        services.delete_hand(game=four_player_game, number=1)


def test_a_hand_with_an_auction_stores_it_by_seat(four_player_game):
    bids = (("Bob", 2), ("Cat", None), ("Dan", 3), ("Ann", 3))
    services.record_hand(game=four_player_game, hand=hand("Ann", 3, "Ann", "Ann", "Ann", bids=bids))
    assert four_player_game.hands.get().auction == [[1, 2], [2, None], [3, 3], [0, 3]]
    assert selectors.load_game(four_player_game).inputs[0].bids == bids


def test_partnership_points_named_by_player_go_to_the_team(league):
    game = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat", "Dan"], teams=[("Us", ["Ann", "Cat"]), ("Them", ["Bob", "Dan"])], rules=rules.Rules()
    )
    services.record_hand(game=game, hand=hand("Cat", 2, "Ann", "Cat", "Bob", None))
    assert totals(game) == {"Us": 2, "Them": 1}


def test_the_database_refuses_a_bid_out_of_range_and_a_duplicate_hand_number(four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"))
    stored = four_player_game.hands.get()
    seat = Seat.objects.filter(game=four_player_game).first()
    # No variant bids above the largest total (every point of the catalogue), none below 1.
    for bid, number in [(rules.MAX_TOTAL + 1, 2), (0, 2), (2, 1)]:
        with pytest.raises(IntegrityError), transaction.atomic():
            Hand.objects.create(game=four_player_game, number=number, dealer=seat, pitcher=seat, bid=bid, points=stored.points)
    Hand.objects.create(game=four_player_game, number=2, dealer=seat, pitcher=seat, bid=rules.MAX_TOTAL, points=stored.points)


def test_a_finished_game_can_be_deleted(four_player_game):
    for _ in range(2):
        services.record_hand(game=four_player_game, hand=hand("Dan", 4, "Dan", "Dan", "Dan", "Dan"))
    four_player_game.refresh_from_db()
    assert four_player_game.is_finished
    four_player_game.delete()
    assert not Game.objects.exists() and not Hand.objects.exists() and not HandScore.objects.exists()


def test_a_hand_number_from_the_future_is_refused_as_such(four_player_game):
    with pytest.raises(rules.RulesError, match="the next hand is hand 1, not 3"):
        services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann"), number=3)
    assert not four_player_game.hands.exists()
