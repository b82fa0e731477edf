"""The rules engine, one or more tests per rule sentence (docs/rules.md, docs/history-format.md)."""

from __future__ import annotations

import pytest

from scores.engine import rules
from scores.engine.rules import Hand, Rules, RulesError, Table, Team
from tests.conftest import hand

SOLO = Table(seats=("Ann", "Bob", "Cat", "Dan"))
TEAMS = Table(
    seats=("Ann", "Bob", "Cat", "Dan"),
    rules=Rules(target=11),
    teams=(Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan"))),
)


def h(pitcher, bid, high, low, jack=None, game=None, **kwargs) -> Hand:
    return Hand(pitcher=pitcher, bid=bid, points={"high": high, "low": low, "jack": jack, "game": game}, **kwargs)


def score(table: Table, hand: Hand, before=None, number=1, dealer="Ann") -> rules.ScoredHand:
    return rules.score_hand(table, hand, number=number, dealer=dealer, before=before or dict.fromkeys(table.sides, 0))


def messages(error: pytest.ExceptionInfo) -> list[str]:
    return [str(p) for p in error.value.problems]


# Section 1: players


@pytest.mark.parametrize("count", [2, 3, 7])
def test_two_to_seven_players_are_accepted(count):
    assert len(Table(seats=tuple(f"P{i}" for i in range(count))).seats) == count


@pytest.mark.parametrize("count", [0, 1, 8])
def test_fewer_than_two_or_more_than_seven_players_are_refused(count):
    with pytest.raises(RulesError, match=f"2 to 7 players, got {count}"):
        Table(seats=tuple(f"P{i}" for i in range(count)))


def test_names_alike_once_trimmed_and_without_case_are_one_player():
    with pytest.raises(RulesError, match='"ann" is seated twice'):
        Table(seats=("Ann", " ann "))


def test_solo_play_makes_each_player_a_side():
    assert SOLO.sides == ("Ann", "Bob", "Cat", "Dan")
    assert not SOLO.partnership


def test_partnership_sides_are_the_teams_and_a_player_means_their_team():
    assert TEAMS.sides == ("Us", "Them")
    assert TEAMS.side("cat") == "Us"
    assert TEAMS.side("Them") == "Them"
    assert TEAMS.side("Eve") is None


def test_partners_must_sit_opposite_each_other():
    with pytest.raises(RulesError, match="opposite"):
        Table(seats=("Ann", "Bob", "Cat", "Dan"), teams=(Team("Us", ("Ann", "Bob")), Team("Them", ("Cat", "Dan"))))


def test_partnership_needs_four_players_in_two_teams_of_two():
    with pytest.raises(RulesError, match=r"partnership play needs 2 teams of 2 \(4 players\)"):
        Table(seats=("Ann", "Bob", "Cat"), teams=(Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan"))))


def test_a_team_name_may_not_be_a_player_name():
    with pytest.raises(RulesError, match="also a player's name"):
        Table(seats=("Ann", "Bob", "Cat", "Dan"), teams=(Team("Ann", ("Ann", "Cat")), Team("Them", ("Bob", "Dan"))))


@pytest.mark.parametrize("target", [0, 1000, 7.0, True, "7", None])
def test_target_must_be_a_whole_number_from_1_to_999(target):
    with pytest.raises(RulesError, match="target must be a whole number 1-999"):
        Table(seats=("Ann", "Bob"), rules=Rules(target=target))


def test_default_target_is_seven():
    assert SOLO.target == 7


# Section 2: dealing and bidding


def test_the_deal_passes_to_the_left():
    assert SOLO.left_of("Ann") == "Bob"
    assert SOLO.left_of("Dan") == "Ann"


def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last():
    assert SOLO.bidding_order("Bob") == ("Cat", "Dan", "Ann", "Bob")


def test_a_bid_must_beat_the_highest_so_far():
    assert rules.allowed_bids(SOLO, "Dan", [("Ann", 2)]) == (None, 3, 4)
    with pytest.raises(RulesError, match="Bob may pass or bid 3 or 4, not 2"):
        rules.auction_result(SOLO, "Dan", [("Ann", 2), ("Bob", 2)])


def test_the_dealer_may_steal_the_bid_by_equalling_it():
    assert rules.allowed_bids(SOLO, "Dan", [("Ann", 2), ("Bob", None), ("Cat", 3)]) == (None, 3, 4)
    assert rules.auction_result(SOLO, "Dan", [("Ann", 2), ("Bob", None), ("Cat", 3), ("Dan", 3)]) == ("Dan", 3)


def test_a_bid_of_four_ends_the_auction():
    assert rules.auction_result(SOLO, "Dan", [("Ann", None), ("Bob", 4)]) == ("Bob", 4)
    assert rules.allowed_bids(SOLO, "Dan", [("Ann", None), ("Bob", 4)]) == ()
    with pytest.raises(RulesError, match="already over"):
        rules.auction_result(SOLO, "Dan", [("Ann", None), ("Bob", 4), ("Cat", None)])


def test_a_stuck_dealer_must_bid_at_least_two():
    assert rules.allowed_bids(SOLO, "Dan", [("Ann", None), ("Bob", None), ("Cat", None)]) == (2, 3, 4)
    with pytest.raises(RulesError, match="Dan may bid 2, 3 or 4, not pass"):
        rules.auction_result(SOLO, "Dan", [("Ann", None), ("Bob", None), ("Cat", None), ("Dan", None)])
    with pytest.raises(RulesError, match="not 1"):
        rules.auction_result(SOLO, "Dan", [("Ann", None), ("Bob", None), ("Cat", None), ("Dan", 1)])


def test_each_player_bids_once_in_order():
    with pytest.raises(RulesError, match="Ann bids next, not Bob"):
        rules.auction_result(SOLO, "Dan", [("Bob", 1)])


def test_an_unfinished_auction_is_refused():
    with pytest.raises(RulesError, match="not finished: Cat has not bid"):
        rules.auction_result(SOLO, "Dan", [("Ann", 1), ("Bob", None)])


def test_the_pitcher_is_whoever_made_the_last_highest_bid():
    assert rules.auction_result(SOLO, "Dan", [("Ann", 1), ("Bob", 2), ("Cat", None), ("Dan", None)]) == ("Bob", 2)


def test_the_auction_must_agree_with_pitcher_and_bid():
    bids = (("Bob", 2), ("Cat", None), ("Dan", 3), ("Ann", 3))
    assert score(SOLO, h("Ann", 3, "Ann", "Ann", "Ann", bids=bids)).pitcher == "Ann"
    with pytest.raises(RulesError) as error:
        score(SOLO, h("Dan", 3, "Ann", "Ann", bids=bids))
    assert messages(error) == ["hand 1, bids: the auction makes Ann the pitcher with 3, not Dan with 3"]


# Section 4: scoring a hand


def test_the_pitcher_who_makes_the_bid_scores_all_points_won():
    result = score(SOLO, h("Bob", 2, high="Bob", low="Bob", jack="Cat", game="Dan"))
    assert result.won == {"Ann": 0, "Bob": 2, "Cat": 1, "Dan": 1}
    assert result.delta == result.won
    assert not result.set


def test_the_pitcher_short_of_the_bid_is_set_back_by_the_bid():
    result = score(SOLO, h("Bob", 3, high="Bob", low="Cat", jack=None, game="Bob"))
    assert result.won["Bob"] == 2
    assert result.delta == {"Ann": 0, "Bob": -3, "Cat": 1, "Dan": 0}
    assert result.set


def test_a_set_back_can_make_a_score_negative():
    result = score(SOLO, h("Ann", 4, "Bob", "Bob"), before={"Ann": 1, "Bob": 0, "Cat": 0, "Dan": 0})
    assert result.totals["Ann"] == -3


def test_other_players_score_the_points_they_won_even_when_the_pitcher_is_set():
    result = score(SOLO, h("Ann", 2, high="Cat", low="Dan", jack="Cat", game="Ann"))
    assert result.delta == {"Ann": -2, "Bob": 0, "Cat": 2, "Dan": 1}


def test_only_one_trump_in_play_counts_as_high_and_low():
    result = score(SOLO, h("Cat", 2, high="Cat", low="Cat"))
    assert result.won["Cat"] == 2 and not result.set


def test_only_one_trump_being_the_jack_scores_three():
    result = score(SOLO, h("Cat", 3, high="Cat", low="Cat", jack="Cat"))
    assert result.won["Cat"] == 3 and result.delta["Cat"] == 3


def test_jack_not_in_play_and_game_tied_award_nothing():
    result = score(SOLO, h("Dan", 2, high="Dan", low="Dan", jack=None, game=None))
    assert sum(result.won.values()) == 2


def test_at_most_four_points_are_won():
    result = score(SOLO, h("Dan", 4, "Dan", "Dan", "Dan", "Dan"))
    assert result.won["Dan"] == 4 and sum(result.won.values()) == 4


def test_high_and_low_are_required():
    with pytest.raises(RulesError) as error:
        score(SOLO, Hand(pitcher="Ann", bid=2, points={"high": None, "low": None, "jack": None, "game": None}))
    assert messages(error) == ["hand 1, high: High is required", "hand 1, low: Low is required"]


@pytest.mark.parametrize("bid", [0, 5, -1, 2.5, True, "2"])
def test_the_bid_must_be_one_to_four(bid):
    with pytest.raises(RulesError) as error:
        score(SOLO, h("Ann", bid, "Ann", "Ann"), number=3)
    assert messages(error) == [f"hand 3, bid: bid must be 1-4, got {bid!r}"]


def test_points_must_go_to_a_seated_player():
    with pytest.raises(RulesError) as error:
        score(SOLO, h("Eve", 2, "Eve", "Ann", jack="Zed"))
    assert messages(error) == [
        "hand 1, pitcher: the pitcher must be a seated player, got 'Eve'",
        "hand 1, high: High must name a seated player, got 'Eve'",
        "hand 1, jack: Jack must name a seated player, got 'Zed'",
    ]


def test_in_partnership_a_player_named_for_a_point_means_their_team():
    result = score(TEAMS, h("Ann", 2, high="Cat", low="Us", jack="Bob", game="Dan"))
    assert result.pitcher_side == "Us"
    assert result.won == {"Us": 2, "Them": 2}
    assert result.delta == {"Us": 2, "Them": 2}


def test_in_partnership_the_pitchers_team_is_set_back():
    result = score(TEAMS, h("Bob", 3, high="Ann", low="Dan", jack="Bob", game="Cat"))
    assert result.delta == {"Us": 2, "Them": -3}
    assert result.set


# Section 5: winning


def test_the_pitcher_reaching_the_target_wins():
    result = score(SOLO, h("Ann", 2, "Ann", "Ann"), before={"Ann": 5, "Bob": 0, "Cat": 0, "Dan": 0})
    assert result.totals["Ann"] == 7 and result.winner == "Ann"


def test_a_non_pitcher_past_the_target_does_not_win():
    result = score(SOLO, h("Ann", 2, "Ann", "Ann", "Bob", "Bob"), before={"Ann": 0, "Bob": 6, "Cat": 0, "Dan": 0})
    assert result.totals["Bob"] == 8
    assert result.winner is None


def test_a_set_pitcher_still_at_or_above_the_target_wins():
    result = score(SOLO, h("Ann", 2, "Bob", "Bob", "Bob", "Ann"), before={"Ann": 10, "Bob": 0, "Cat": 0, "Dan": 0})
    assert result.set and result.totals["Ann"] == 8
    assert result.winner == "Ann"


def test_the_winner_may_have_fewer_points_than_a_player_who_lost():
    game = rules.replay(
        SOLO,
        [
            h("Ann", 1, "Bob", "Bob", "Bob", "Bob"),  # Ann -1, Bob 4
            h("Ann", 1, "Bob", "Bob", "Bob", "Bob"),  # Ann -2, Bob 8 (not pitching: no win)
            h("Cat", 4, "Cat", "Cat", "Cat", "Cat"),  # Cat 4
            h("Cat", 3, "Cat", "Cat", "Cat", "Bob"),  # Cat 7: wins with less than Bob's 9
        ],
    )
    assert game.winner == "Cat"
    assert game.totals["Cat"] == 7 < game.totals["Bob"] == 9


def test_partnership_reaching_the_target_wins_for_the_team():
    game = rules.replay(TEAMS, [h("Ann", 4, "Us", "Us", "Us", "Us")] * 3)
    assert game.winner == "Us" and game.totals == {"Us": 12, "Them": 0}


def test_a_hand_after_the_end_is_an_error():
    with pytest.raises(RulesError) as error:
        rules.replay(SOLO, [h("Ann", 4, "Ann", "Ann", "Ann", "Ann")] * 3)
    assert messages(error) == ["hand 3: the game was already over: Ann won on hand 2"]


def test_a_higher_target_is_honoured():
    table = Table(seats=("Ann", "Bob"), rules=Rules(target=11))
    game = rules.replay(table, [h("Ann", 4, "Ann", "Ann", "Ann", "Ann")] * 2)
    assert game.winner is None and game.totals["Ann"] == 8


# Replay: dealers, totals, and every problem at once


def test_replay_rotates_the_deal_from_seat_one():
    game = rules.replay(SOLO, [h("Ann", 1, "Bob", "Cat")] * 5)
    assert [hand.dealer for hand in game.hands] == ["Ann", "Bob", "Cat", "Dan", "Ann"]


def test_a_given_dealer_resets_the_rotation():
    game = rules.replay(SOLO, [h("Ann", 1, "Bob", "Cat", dealer="Cat"), h("Ann", 1, "Bob", "Cat")])
    assert [hand.dealer for hand in game.hands] == ["Cat", "Dan"]


def test_replay_keeps_running_totals():
    game = rules.replay(SOLO, [h("Ann", 1, "Ann", "Bob"), h("Bob", 2, "Cat", "Cat")])
    assert [dict(hand.totals) for hand in game.hands] == [
        {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0},
        {"Ann": 1, "Bob": -1, "Cat": 2, "Dan": 0},
    ]


def test_replay_reports_every_bad_hand_at_once():
    with pytest.raises(RulesError) as error:
        rules.replay(SOLO, [h("Ann", 5, "Ann", "Ann"), h("Ann", 1, "Ann", "Ann"), h("Eve", 1, "Ann", "Ann")])
    assert messages(error) == [
        "hand 1, bid: bid must be 1-4, got 5",
        "hand 3, pitcher: the pitcher must be a seated player, got 'Eve'",
    ]


def test_the_auction_in_a_hand_is_checked_against_the_dealer_of_that_hand():
    bids = (("Cat", None), ("Dan", None), ("Ann", None), ("Bob", 2))  # Bob deals hand 2.
    game = rules.replay(SOLO, [h("Ann", 1, "Ann", "Ann"), h("Bob", 2, "Bob", "Bob", bids=bids)])
    assert game.hands[1].dealer == "Bob" and game.hands[1].bids == bids


def test_a_side_at_the_target_that_did_not_win_is_told_why():
    by_bid = rules.Table(seats=("Ann", "Bob", "Cat"), rules=rules.Rules(target=5, going_out="made_bid"))
    before = {"Ann": 3, "Bob": 8, "Cat": 0}
    set_pitcher = hand("Bob", 2, "Bob", "Ann", jack="Ann", game="Ann")  # Bob 8 - 2 = 6, set; Ann 3 + 3 = 6, not pitching.
    scored = rules.score_hand(by_bid, set_pitcher, number=4, dealer="Ann", before=before)
    assert scored.winner is None
    assert rules.not_out(by_bid.rules, scored.totals, pitcher_side="Bob", winner=None) == {"Ann": "not_pitcher", "Bob": "set"}
    still_out = rules.Table(seats=by_bid.seats, rules=rules.Rules(target=5))  # A set pitcher at the target still goes out.
    scored = rules.score_hand(still_out, set_pitcher, number=4, dealer="Ann", before=before)
    assert scored.winner == "Bob" and rules.not_out(still_out.rules, scored.totals, pitcher_side="Bob", winner="Bob") == {}
