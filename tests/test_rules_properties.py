"""Property tests: random tables and games played through the rules engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scores import rules
from scores.rules import Hand, Rules, RulesError, Table, Team

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


@st.composite
def tables(draw) -> Table:
    target = draw(st.integers(rules.MIN_TARGET, 21))
    if draw(st.booleans()):
        seats = ("Ann", "Bob", "Cat", "Dan")
        return Table(seats=seats, rules=Rules(target=target), teams=(Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan"))))
    count = draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))
    return Table(seats=tuple(draw(st.permutations(NAMES))[:count]), rules=Rules(target=target))


@st.composite
def hands(draw, table: Table) -> Hand:
    sides = st.sampled_from(table.sides)
    return Hand(
        pitcher=draw(st.sampled_from(table.seats)),
        bid=draw(st.sampled_from(rules.BIDS)),
        high=draw(sides),
        low=draw(sides),
        jack=draw(st.none() | sides),
        game=draw(st.none() | sides),
    )


@st.composite
def games(draw) -> tuple[Table, list[Hand]]:
    """A table and hands played until someone wins or the hands run out: never past the end."""
    table = draw(tables())
    played: list[Hand] = []
    for _ in range(draw(st.integers(0, 40))):
        played.append(draw(hands(table)))
        if rules.replay(table, played).over:
            break
    return table, played


@st.composite
def auctions(draw, table: Table) -> tuple[str, list[tuple[str, int | None]]]:
    dealer = draw(st.sampled_from(table.seats))
    bids: list[tuple[str, int | None]] = []
    for player in table.bidding_order(dealer):
        allowed = rules.allowed_bids(table, dealer, bids)
        if not allowed:
            break
        bids.append((player, draw(st.sampled_from(allowed))))
    return dealer, bids


@given(games())
@settings(max_examples=200, deadline=None)
def test_every_hand_awards_two_to_four_points_and_totals_add_up(game):
    table, played = game
    result = rules.replay(table, played)
    running = dict.fromkeys(table.sides, 0)
    for scored in result.hands:
        assert 2 <= sum(scored.won.values()) <= 4
        for side in table.sides:
            running[side] += scored.delta[side]
            assert scored.delta[side] == (-scored.bid if side == scored.pitcher_side and scored.set else scored.won[side])
        assert scored.set == (scored.won[scored.pitcher_side] < scored.bid)
        assert dict(scored.totals) == running
    assert dict(result.totals) == running


@given(games())
@settings(max_examples=200, deadline=None)
def test_the_winner_is_the_last_pitchers_side_at_or_above_the_target(game):
    table, played = game
    result = rules.replay(table, played)
    if result.winner is not None:
        last = result.hands[-1]
        assert result.winner == last.pitcher_side
        assert result.totals[result.winner] >= table.target
        assert all(hand.winner is None for hand in result.hands[:-1])
    else:
        assert all(hand.winner is None for hand in result.hands)


@given(games())
@settings(max_examples=100, deadline=None)
def test_replay_is_deterministic(game):
    table, played = game
    assert rules.replay(table, played) == rules.replay(table, list(played))


@given(games(), st.data())
@settings(max_examples=100, deadline=None)
def test_no_hand_is_accepted_after_the_end(game, data):
    table, played = game
    if not rules.replay(table, played).over:
        return
    extra = data.draw(hands(table))
    with pytest.raises(RulesError, match=f"hand {len(played) + 1}: the game was already over"):
        rules.replay(table, [*played, extra])


@given(tables().flatmap(lambda table: st.tuples(st.just(table), auctions(table))))
@settings(max_examples=300, deadline=None)
def test_any_auction_built_from_allowed_bids_is_accepted(case):
    table, (dealer, bids) = case
    pitcher, bid = rules.auction_result(table, dealer, bids)
    made = [(name, b) for name, b in bids if b is not None]
    assert (pitcher, bid) == made[-1]
    assert all(b is None or b >= 1 for _, b in bids)
    if bids[-1][1] != rules.PITCH:
        assert len(bids) == len(table.seats)
    else:
        assert rules.PITCH not in [b for _, b in bids[:-1]]
