"""House rules in the rules engine: going out, minimum bid, dealer's steal and smudge.

Hand-worked examples for the edges, and property tests over every combination
of the four house rules. No database.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scores.engine import rules
from scores.engine.rules import Hand, Rules, RulesError, Table, Team

SEATS = ("Ann", "Bob", "Cat", "Dan")
ALL_RULES = [
    Rules(going_out=going_out, min_bid=min_bid, steal=steal, smudge=smudge)
    for going_out, min_bid, steal, smudge in itertools.product(rules.GOING_OUT, (1, 2), (True, False), (False, True))
]


def h(pitcher, bid, high, low, jack=None, game=None, **kw) -> Hand:
    return Hand(pitcher=pitcher, bid=bid, points={"high": high, "low": low, "jack": jack, "game": game}, **kw)


def table(**house) -> Table:
    return Table(seats=("Ann", "Bob"), rules=Rules(**house))


def messages(error) -> list[str]:
    return [str(p) for p in error.value.problems]


# The value itself


def test_the_defaults_are_the_rule_sheets():
    assert Rules().as_dict() == {
        "variant": "4-point",
        "points": ["high", "low", "jack", "game"],
        "target": 7,
        "going_out": "pitcher",
        "min_bid": 1,
        "steal": True,
        "smudge": False,
        "negative": True,
    }
    assert Rules(target=11).house == {}
    assert Rules(going_out="made_bid", min_bid=2).house == {"going_out": "made_bid", "min_bid": 2}


@pytest.mark.parametrize(
    ("house", "message"),
    [
        ({"going_out": "maybe"}, 'going_out: going_out must be "pitcher" or "made_bid", got \'maybe\''),
        ({"min_bid": 5}, "min_bid: min_bid must be a whole number 1-4, got 5"),
        ({"min_bid": 0}, "min_bid: min_bid must be a whole number 1-4, got 0"),
        ({"min_bid": True}, "min_bid: min_bid must be a whole number 1-4, got True"),
        ({"steal": 1}, "steal: steal must be true or false, got 1"),
        ({"smudge": "yes"}, "smudge: smudge must be true or false, got 'yes'"),
        ({"negative": None}, "negative: negative must be true or false, got None"),
    ],
)
def test_a_house_rule_outside_its_values_is_refused(house, message):
    with pytest.raises(RulesError) as error:
        Rules(**house)
    assert messages(error) == [message]


# Going out: set at the target, under both rules


def test_a_set_pitcher_at_the_target_wins_by_default():
    played = [
        h("Ann", 4, "Ann", "Ann", "Ann", "Ann"),  # Ann 4: made.
        h("Bob", 2, "Ann", "Ann", "Ann", "Ann"),  # Bob set to -2; Ann 8, but she did not pitch.
        h("Ann", 1, "Bob", "Bob"),  # Ann set: 8 - 1 = 7, still at the target.
    ]
    game = rules.replay(table(), played)
    assert [hand.winner for hand in game.hands] == [None, None, "Ann"]
    assert game.hands[-1].set and game.totals == {"Ann": 7, "Bob": 0}


def test_under_made_bid_a_set_pitcher_at_the_target_plays_on_and_goes_out_by_making_a_bid():
    played = [
        h("Ann", 4, "Ann", "Ann", "Ann", "Ann"),
        h("Bob", 2, "Ann", "Ann", "Ann", "Ann"),
        h("Ann", 1, "Bob", "Bob"),  # Ann set at 7, Bob back to 0: no winner.
        h("Bob", 2, "Bob", "Ann"),  # Bob set again: 0 - 2 = -2; Ann 8, not pitching.
        h("Ann", 2, "Ann", "Ann"),  # Ann makes 2: 10, and goes out.
    ]
    game = rules.replay(table(going_out="made_bid"), played)
    assert [hand.winner for hand in game.hands] == [None, None, None, None, "Ann"]
    assert game.hands[2].set and game.hands[2].totals == {"Ann": 7, "Bob": 0}
    assert game.totals == {"Ann": 10, "Bob": -2}


def test_under_made_bid_a_hand_after_the_set_is_not_an_error():
    played = [h("Ann", 4, "Ann", "Ann", "Ann", "Ann"), h("Bob", 2, "Ann", "Ann", "Ann", "Ann"), h("Ann", 1, "Bob", "Bob")]
    with pytest.raises(RulesError, match="already over"):
        rules.replay(table(), [*played, h("Bob", 1, "Bob", "Bob")])
    assert rules.replay(table(going_out="made_bid"), [*played, h("Bob", 1, "Bob", "Bob")]).winner is None


# Smudge


def test_a_made_smudge_wins_at_once_below_the_target():
    game = rules.replay(table(smudge=True), [h("Bob", 4, "Bob", "Bob", "Bob", "Bob")])
    assert game.winner == "Bob" and game.totals == {"Ann": 0, "Bob": 4}
    assert game.hands[0].won["Bob"] == 4 and game.hands[0].delta["Bob"] == 4
    assert rules.replay(table(), [h("Bob", 4, "Bob", "Bob", "Bob", "Bob")]).winner is None


def test_smudge_with_the_jack_not_in_play_is_not_a_smudge():
    game = rules.replay(table(smudge=True), [h("Bob", 4, "Bob", "Bob", None, "Bob")])
    assert game.winner is None and game.hands[0].set and game.totals == {"Ann": 0, "Bob": -4}


def test_smudge_with_game_tied_is_not_a_smudge():
    game = rules.replay(table(smudge=True), [h("Bob", 4, "Bob", "Bob", "Bob", None)])
    assert game.winner is None and game.hands[0].set


def test_all_four_points_on_a_lower_bid_is_not_a_smudge():
    game = rules.replay(table(smudge=True), [h("Bob", 3, "Bob", "Bob", "Bob", "Bob")])
    assert game.winner is None and game.totals["Bob"] == 4


def test_a_partnership_smudge_counts_the_points_of_both_partners():
    teams = Table(seats=SEATS, rules=Rules(smudge=True), teams=(Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan"))))
    game = rules.replay(teams, [h("Ann", 4, "Ann", "Cat", "Cat", "Us")])
    assert game.winner == "Us"


def test_a_smudge_wins_under_made_bid_too_and_before_the_going_out_rule():
    game = rules.replay(table(smudge=True, going_out="made_bid"), [h("Ann", 4, "Ann", "Ann", "Ann", "Ann")])
    assert game.winner == "Ann"


# Minimum bid


def test_minimum_bid_two_offers_no_bid_of_one():
    solo = Table(seats=SEATS, rules=Rules(min_bid=2))
    assert rules.allowed_bids(solo, "Dan", []) == (None, 2, 3, 4)
    assert rules.allowed_bids(solo, "Dan", [("Ann", None), ("Bob", None), ("Cat", None)]) == (2, 3, 4)


def test_a_bid_of_one_under_minimum_bid_two_names_the_house_rule():
    solo = Table(seats=SEATS, rules=Rules(min_bid=2))
    with pytest.raises(RulesError) as error:
        rules.replay(solo, [h("Ann", 1, "Ann", "Ann")])
    assert messages(error) == ["hand 1, bid: this game's house rules make the minimum bid 2, got 1"]
    with pytest.raises(RulesError) as error:
        rules.auction_result(solo, "Dan", [("Ann", 1), ("Bob", None), ("Cat", None), ("Dan", None)])
    assert messages(error) == ["bids, bid 1: Ann may pass or bid 2, 3 or 4, not 1: this game's house rules make the minimum bid 2"]


# Dealer's steal


def test_a_steal_refused_names_the_house_rule():
    solo = Table(seats=SEATS, rules=Rules(steal=False))
    bids = [("Ann", 2), ("Bob", None), ("Cat", None)]
    assert rules.allowed_bids(solo, "Dan", bids) == (None, 3, 4)
    assert rules.allowed_bids(Table(seats=SEATS), "Dan", bids) == (None, 2, 3, 4)
    with pytest.raises(RulesError) as error:
        rules.auction_result(solo, "Dan", [*bids, ("Dan", 2)])
    assert messages(error) == [
        "bids, bid 4: Dan may pass or bid 3 or 4, not 2: this game's house rules do not let the dealer steal the bid"
    ]
    assert rules.forbidding_rule(solo, "Dan", bids, 2) == "steal"
    assert rules.forbidding_rule(solo, "Dan", bids, 1) is None  # Below the high bid: no rule sheet allows it.


def test_without_the_steal_a_stuck_dealer_still_bids_two():
    solo = Table(seats=SEATS, rules=Rules(steal=False))
    assert rules.allowed_bids(solo, "Dan", [("Ann", None), ("Bob", None), ("Cat", None)]) == (2, 3, 4)


# Every combination


@st.composite
def games(draw):
    """A table under any house rules and an auction-checked game played until it ends or the hands run out."""
    game_rules = Rules(
        target=draw(st.integers(1, 15)), **{k: v for k, v in draw(st.sampled_from(ALL_RULES)).as_dict().items() if k != "target"}
    )
    count = draw(st.integers(2, 5))
    table_ = Table(seats=SEATS[:count] if count <= 4 else (*SEATS, "Eve"), rules=game_rules)
    sides = st.sampled_from(table_.sides)
    played: list[Hand] = []
    dealer = None
    for _ in range(draw(st.integers(0, 20))):  # At most 80 points: the target 99 below is never reached.
        dealer = rules.next_dealer(table_, dealer)
        bids: list[tuple[str, int | None]] = []
        for player in table_.bidding_order(dealer):
            allowed = rules.allowed_bids(table_, dealer, bids)
            if not allowed:
                break
            bids.append((player, draw(st.sampled_from(allowed))))
        pitcher, bid = rules.auction_result(table_, dealer, bids)
        played.append(h(pitcher, bid, draw(sides), draw(sides), draw(st.none() | sides), draw(st.none() | sides), bids=tuple(bids)))
        if rules.replay(table_, played).over:
            break
    return table_, played


@given(games())
@settings(max_examples=300, deadline=None)
def test_every_auction_keeps_the_house_rules(game):
    table_, played = game
    for hand in played:
        made = [b for _, b in hand.bids if b is not None]
        assert all(b >= table_.rules.min_bid for b in made)
        assert made == sorted(made) and len(set(made)) >= len(made) - 1  # Only the dealer's may equal the one before.
        dealer_bid = hand.bids[-1][1] if len(hand.bids) == len(table_.seats) else None
        before = max((b for _, b in hand.bids[:-1] if b is not None), default=0)
        if dealer_bid is not None and before and not table_.rules.steal:
            assert dealer_bid > before
        if dealer_bid is not None and not before:
            assert dealer_bid >= rules.STUCK_DEALER_MINIMUM


@given(games())
@settings(max_examples=300, deadline=None)
def test_every_winner_follows_the_house_rules(game):
    table_, played = game
    result = rules.replay(table_, played)
    for hand in result.hands:
        side = hand.pitcher_side
        smudged = table_.rules.smudge and hand.bid == 4 and hand.won[side] == 4
        reached = hand.totals[side] >= table_.target
        if smudged:
            assert hand.winner == side
        elif table_.rules.going_out == "made_bid":
            assert hand.winner == (side if reached and not hand.set else None)
        else:
            assert hand.winner == (side if reached else None)
        assert hand.delta[side] == (-hand.bid if hand.set else hand.won[side])


@given(games())
@settings(max_examples=200, deadline=None)
def test_the_house_rules_change_only_the_winning_never_the_scores(game):
    table_, played = game
    result = rules.replay(table_, played)
    sheet = rules.replay(Table(seats=table_.seats, rules=Rules(target=99)), [dataclasses.replace(hand, bids=None) for hand in played])
    assert [hand.totals for hand in result.hands] == [hand.totals for hand in sheet.hands]


def test_a_bid_that_is_not_a_whole_number_is_never_blamed_on_a_house_rule():
    solo = Table(seats=SEATS, rules=Rules(min_bid=2))
    assert rules.forbidding_rule(solo, "Dan", [], True) is None  # True == 1 in Python, but it is no bid.
    with pytest.raises(RulesError) as error:
        rules.auction_result(solo, "Dan", [("Ann", True)])
    assert messages(error) == ["bids, bid 1: Ann may pass or bid 2, 3 or 4, not True"]
