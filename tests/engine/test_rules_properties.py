"""Property tests: random tables and games played through the rules engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scores.engine import rules
from scores.engine.rules import Hand, Rules, RulesError, Table, Team

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
        bid=draw(st.sampled_from(table.rules.bids)),
        points={"high": draw(sides), "low": draw(sides), "jack": draw(st.none() | sides), "game": draw(st.none() | sides)},
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
    if bids[-1][1] != 4:
        assert len(bids) == len(table.seats)
    else:
        assert 4 not in [b for _, b in bids[:-1]]


# The Pitch family: random variants (named and custom), seats, team shapes and house rules.

VARIANT_NAMES = [*rules.VARIANTS, rules.CUSTOM.name]


@st.composite
def family_rules(draw) -> Rules:
    variant = draw(st.sampled_from(VARIANT_NAMES))
    if variant == rules.CUSTOM.name:
        points = draw(st.lists(st.sampled_from(list(rules.CATALOGUE)), unique=True, min_size=1))
        base = Rules(variant=variant, points=points)
    else:
        base = Rules(variant=variant)
    return Rules(
        variant=variant,
        points=base.points,
        target=draw(st.sampled_from([base.target]) | st.integers(rules.MIN_TARGET, 60)),
        min_bid=draw(st.sampled_from([base.min_bid]) | st.integers(1, base.total)),
        going_out=draw(st.sampled_from(rules.GOING_OUT)),
        steal=draw(st.booleans()),
        smudge=draw(st.booleans()),
        negative=draw(st.booleans()),
    )


@st.composite
def family_tables(draw, game_rules: st.SearchStrategy[Rules] | None = None) -> Table:
    chosen = draw(family_rules() if game_rules is None else game_rules)
    shape = draw(st.sampled_from([None, *rules.TEAM_SHAPES]))
    if shape is None:
        count = draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))
        return Table(seats=tuple(draw(st.permutations(NAMES))[:count]), rules=chosen)
    teams, size = shape
    seats = tuple(draw(st.permutations(NAMES))[: teams * size])
    named = [Team(name, players) for name, players in zip(("Us", "Them", "Others"), rules.partners(seats, teams), strict=False)]
    return Table(seats=seats, rules=chosen, teams=tuple(draw(st.permutations(named))))


@st.composite
def family_hands(draw, table: Table) -> Hand:
    names = st.sampled_from(table.sides + (table.seats if table.partnership else ()))
    pitcher = draw(st.sampled_from(table.seats))
    sweep = draw(st.booleans()) and draw(st.booleans())  # Now and then every point to the pitcher's side.
    points = {}
    for point in table.rules.kinds:
        side = st.just(table.side(pitcher)) if sweep else names
        points[point.key] = draw(st.none() | side) if point.optional else draw(side)
    bid = table.rules.total if sweep and draw(st.booleans()) else draw(st.sampled_from(table.rules.bids))
    return Hand(pitcher=pitcher, bid=bid, points=points)


@st.composite
def played_out(draw, table: Table, most: int) -> list[Hand]:
    """Up to ``most`` hands, the last of them the one that ends the game if one does."""
    played: list[Hand] = []
    totals, dealer = dict.fromkeys(table.sides, 0), None
    for number in range(1, draw(st.integers(0, most)) + 1):
        played.append(draw(family_hands(table)))
        scored = rules.score_next(table, played[-1], number=number, last_dealer=dealer, before=totals)
        if scored.winner is not None:
            break
        totals, dealer = scored.totals, scored.dealer
    return played


@st.composite
def family_games(draw) -> tuple[Table, list[Hand]]:
    """A table of the family and hands played until someone wins or the hands run out."""
    table = draw(family_tables())
    return table, draw(played_out(table, 25))


@given(family_games())
@settings(max_examples=200, deadline=None)
def test_a_hands_won_is_the_value_of_the_points_each_side_was_awarded(game):
    table, played = game
    for hand, scored in zip(played, rules.replay(table, played).hands, strict=True):
        awarded = {key: table.side(name) for key, name in hand.points.items() if name is not None}
        assert dict(scored.points) == {key: table.side(name) for key, name in hand.points.items()}
        for side in table.sides:
            assert scored.won[side] == sum(rules.CATALOGUE[key].value for key, won_by in awarded.items() if won_by == side)
        assert sum(scored.won.values()) == sum(rules.CATALOGUE[key].value for key in awarded) <= table.rules.total
        assert scored.set == (scored.won[scored.pitcher_side] < scored.bid)


@given(family_games())
@settings(max_examples=200, deadline=None)
def test_totals_add_up_and_without_negative_scores_never_go_below_zero(game):
    table, played = game
    result = rules.replay(table, played)
    running = dict.fromkeys(table.sides, 0)
    for scored in result.hands:
        for side in table.sides:
            change = -scored.bid if side == scored.pitcher_side and scored.set else scored.won[side]
            expected = running[side] + change if table.rules.negative else max(0, running[side] + change)
            assert scored.totals[side] == expected
            assert scored.delta[side] == expected - running[side]
            running[side] = expected
            if not table.rules.negative:
                assert scored.totals[side] >= 0
    assert dict(result.totals) == running


@given(family_games())
@settings(max_examples=200, deadline=None)
def test_the_winner_follows_the_going_out_rule_or_a_smudge_with_the_top_bid(game):
    table, played = game
    result = rules.replay(table, played)
    game_rules = table.rules
    for hand, scored in zip(played, result.hands, strict=True):
        side = scored.pitcher_side
        every_point = all(table.side(name) == side for name in hand.points.values())
        smudged = game_rules.smudge and scored.bid == game_rules.total and every_point
        reached = scored.totals[side] >= game_rules.target and (game_rules.going_out == "pitcher" or not scored.set)
        assert scored.winner == (side if smudged or reached else None)
    assert all(scored.winner is None for scored in result.hands[:-1])


@given(family_games(), st.data())
@settings(max_examples=100, deadline=None)
def test_the_house_rules_change_the_winning_and_the_floor_never_the_points_won(game, data):
    """The same hands under the variant's rule sheet (no target reached, lowest minimum bid) win the same points."""
    table, played = game
    result = rules.replay(table, played)
    sheet = Table(
        seats=table.seats, teams=table.teams, rules=Rules(variant=table.rules.variant, points=table.rules.points, min_bid=1, target=999)
    )
    plain = rules.replay(sheet, played)
    assert [hand.won for hand in result.hands] == [hand.won for hand in plain.hands]
    if table.rules.negative:
        assert [hand.totals for hand in result.hands] == [hand.totals for hand in plain.hands]


@given(family_tables().flatmap(lambda table: st.tuples(st.just(table), auctions(table))))
@settings(max_examples=300, deadline=None)
def test_any_auction_of_the_family_keeps_the_bidding_rules(case):
    table, (dealer, bids) = case
    game_rules = table.rules
    pitcher, bid = rules.auction_result(table, dealer, bids)
    made = [b for _, b in bids if b is not None]
    assert (pitcher, bid) == [(name, b) for name, b in bids if b is not None][-1]
    assert all(game_rules.min_bid <= b <= game_rules.total for b in made)
    assert game_rules.total not in made[:-1]  # The top bid ends the auction.
    if bids[-1][1] != game_rules.total:
        assert len(bids) == len(table.seats)
    if len(bids) == len(table.seats) and len(made) == 1 and bids[-1][1] is not None:  # Everyone passed to the dealer.
        assert bids[-1][1] >= min(max(2, game_rules.min_bid), game_rules.total)
    if len(bids) == len(table.seats) and len(made) > 1 and bids[-1][1] == made[-2]:  # The dealer stole the bid.
        assert game_rules.steal


@given(family_rules())
@settings(max_examples=300, deadline=None)
def test_rules_read_back_from_what_they_export(game_rules):
    assert Rules(**game_rules.as_dict()) == game_rules
    assert set(game_rules.house) <= {"going_out", "min_bid", "steal", "smudge", "negative"}
    assert game_rules.total == sum(rules.CATALOGUE[key].value for key in game_rules.points)
    assert list(game_rules.points) == sorted(game_rules.points, key=list(rules.CATALOGUE).index) or game_rules.variant != "custom"


@given(st.sampled_from(rules.TEAM_SHAPES), st.permutations(NAMES), st.data())
@settings(max_examples=300, deadline=None)
def test_teams_are_accepted_exactly_when_partners_sit_every_t_seats(shape, names, data):
    count, size = shape
    seats = tuple(names[: count * size])
    order = data.draw(st.permutations(range(count * size)))  # Any split of the seats into teams of the right size.
    groups = [tuple(seats[i] for i in sorted(order[t * size : (t + 1) * size])) for t in range(count)]
    teams = tuple(Team(f"Team {t}", group) for t, group in enumerate(groups))
    spaced = all(len({seats.index(p) % count for p in group}) == 1 for group in groups)
    if spaced:
        assert Table(seats=seats, teams=teams).sides == tuple(team.name for team in teams)
    else:
        with pytest.raises(RulesError, match="must sit"):
            Table(seats=seats, teams=teams)


# The 4-point game scores exactly as the engine did before the family: its scoring, kept here as the oracle.


def old_score(table: Table, hand: Hand, before: dict[str, int]) -> tuple[dict, dict, dict, bool, str | None]:
    """The 4-point engine's arithmetic, as it was: one point each for High, Low, Jack and Game; a set pitcher loses
    the bid; a made smudge is a bid of 4 and all four points."""
    won = dict.fromkeys(table.sides, 0)
    for point in ("high", "low", "jack", "game"):
        if hand.points[point] is not None:
            won[table.side(hand.points[point])] += 1
    pitcher_side = table.side(hand.pitcher)
    delta = dict(won)
    is_set = won[pitcher_side] < hand.bid
    if is_set:
        delta[pitcher_side] = -hand.bid
    totals = {side: before[side] + delta[side] for side in table.sides}
    game_rules = table.rules
    out = (game_rules.smudge and hand.bid == 4 and won[pitcher_side] == 4) or (
        totals[pitcher_side] >= game_rules.target and (game_rules.going_out == "pitcher" or not is_set)
    )
    return won, delta, totals, is_set, pitcher_side if out else None


def old_allowed_bids(table: Table, dealer: str, bids: list) -> tuple:
    order = table.bidding_order(dealer)
    if len(bids) >= len(order) or any(b == 4 for _, b in bids):
        return ()
    highest = max((b for _, b in bids if b is not None), default=0)
    allowed = tuple(b for b in (1, 2, 3, 4) if b >= table.rules.min_bid)
    if len(bids) < len(order) - 1:
        return (None, *(b for b in allowed if b > highest))
    if highest == 0:
        return tuple(b for b in allowed if b >= 2)
    if table.rules.steal:
        return (None, *(b for b in allowed if b >= highest))
    return (None, *(b for b in allowed if b > highest))


four_point = st.builds(
    Rules,
    target=st.integers(rules.MIN_TARGET, 99),
    going_out=st.sampled_from(rules.GOING_OUT),
    min_bid=st.sampled_from([1, 2]),
    steal=st.booleans(),
    smudge=st.booleans(),
)


@st.composite
def four_point_games(draw) -> tuple[Table, list[Hand]]:
    """The tables the 4-point engine knew (solo for 2-7, or 2 teams of 2) under its house rules."""
    table = draw(family_tables(four_point).filter(lambda t: not t.teams or len(t.seats) == 4))
    return table, draw(played_out(table, 30))


@given(four_point_games())
@settings(max_examples=200, deadline=None)
def test_the_4_point_game_scores_exactly_as_before(game):
    table, played = game
    totals = dict.fromkeys(table.sides, 0)
    for hand, scored in zip(played, rules.replay(table, played).hands, strict=True):
        won, delta, totals, is_set, winner = old_score(table, hand, totals)
        assert (scored.won, scored.delta, scored.totals, scored.set, scored.winner) == (won, delta, totals, is_set, winner)


@given(family_tables(four_point).flatmap(lambda table: st.tuples(st.just(table), auctions(table))))
@settings(max_examples=300, deadline=None)
def test_the_4_point_auction_allows_exactly_what_it_did(case):
    table, (dealer, bids) = case
    for i in range(len(bids) + 1):
        assert rules.allowed_bids(table, dealer, bids[:i]) == old_allowed_bids(table, dealer, bids[:i])
