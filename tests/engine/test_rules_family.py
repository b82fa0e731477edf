"""The Pitch family in the rules engine: the point catalogue, the variants, custom points, the top bid, no negative
scores and teams of two and of three, one or more tests per sentence of the history format's version 2."""

from __future__ import annotations

import pytest

from scores.engine import problems, rules
from scores.engine.rules import Hand, Rules, RulesError, Table, Team

SEATS = ("Ann", "Bob", "Cat", "Dan")
SIX = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def table(variant: str = "4-point", seats=SEATS, teams=(), **rules_) -> Table:
    return Table(seats=seats, rules=Rules(variant=variant, **rules_), teams=teams)


def score(table_: Table, pitcher: str, bid: int, points: dict, before=None, bids=None, dealer="Ann") -> rules.ScoredHand:
    hand = Hand(pitcher=pitcher, bid=bid, points=points, bids=bids)
    return rules.score_hand(table_, hand, number=1, dealer=dealer, before=before or dict.fromkeys(table_.sides, 0))


def every(table_: Table, side: str | None) -> dict:
    """Every point of the table's variant to one side (None: every one missing)."""
    return dict.fromkeys(table_.rules.points, side)


def messages(error: pytest.ExceptionInfo) -> list[str]:
    return [str(p) for p in error.value.problems]


# The catalogue and the variants


def test_the_catalogue_is_the_formats():
    assert {key: (point.value, point.optional) for key, point in rules.CATALOGUE.items()} == {
        "high": (1, False),
        "low": (1, False),
        "jack": (1, True),
        "off_jack": (1, True),
        "joker": (1, True),
        "big_joker": (1, True),
        "little_joker": (1, True),
        "ace": (1, True),
        "off_ace": (1, True),
        "ten": (1, True),
        "deuce": (1, True),
        "three": (3, True),
        "off_three": (3, True),
        "five": (5, True),
        "game": (1, True),
    }


@pytest.mark.parametrize(
    ("name", "points", "total", "min_bid", "target"),
    [
        ("4-point", "high low jack game", 4, 1, 7),
        ("5-point", "high low jack off_jack game", 5, 2, 11),
        ("6-point", "high low jack off_jack joker game", 6, 2, 11),
        ("7-point", "ace jack off_jack big_joker little_joker ten deuce", 7, 2, 21),
        ("8-point", "ace jack off_jack ten three deuce", 8, 2, 21),
        ("9-point", "high low jack five game", 9, 2, 21),
        ("10-point", "ace jack off_jack big_joker little_joker ten three deuce", 10, 4, 52),
        ("11-point", "ace off_ace jack off_jack big_joker little_joker ten three deuce", 11, 4, 52),
        ("13-point", "ace jack off_jack big_joker little_joker ten three off_three deuce", 13, 4, 52),
    ],
)
def test_each_named_variant_is_the_formats(name, points, total, min_bid, target):
    game_rules = Rules(variant=name)
    assert (game_rules.points, game_rules.total, game_rules.min_bid, game_rules.target) == (tuple(points.split()), total, min_bid, target)
    assert rules.VARIANTS[name].total == total
    assert game_rules.bids == tuple(range(min_bid, total + 1))


def test_the_default_variant_is_the_4_point_game():
    assert Rules() == Rules(variant="4-point", points=["game", "jack", "low", "high"], target=7, min_bid=1)
    assert list(rules.VARIANTS) == ["4-point", "5-point", "6-point", "7-point", "8-point", "9-point", "10-point", "11-point", "13-point"]


def test_a_custom_game_has_its_points_in_the_catalogues_order_and_defaults_of_its_own():
    game_rules = Rules(variant="custom", points=["game", "five", "high", "low"])
    assert game_rules.points == ("high", "low", "five", "game")
    assert (game_rules.total, game_rules.min_bid, game_rules.target) == (8, 1, 7)
    assert Rules(variant="custom", points=["game"]).total == 1


def test_a_named_variant_given_its_own_points_in_another_order_is_the_same_rules():
    assert Rules(variant="9-point", points=("five", "game", "jack", "low", "high")) == Rules(variant="9-point")


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"variant": "12-point"}, 'variant: variant must be "custom" or one of "4-point", "5-point", "6-point", "7-point", "8-point", '
         '"9-point", "10-point", "11-point", "13-point", got \'12-point\''),
        ({"variant": None}, "variant: variant must be \"custom\" or one of"),
        ({"variant": "custom"}, "points: a custom game needs its points"),
        ({"variant": "custom", "points": []}, "points: a custom game needs at least one point"),
        ({"variant": "custom", "points": ["high", "trump"]}, 'points: "trump" is not a point (the points are high, low, jack, off_jack, '),
        ({"variant": "custom", "points": ["high", "high"]}, 'points: "high" is given twice'),
        ({"variant": "custom", "points": "high low"}, "points: points must be a list of point keys, got 'high low'"),
        ({"variant": "custom", "points": None}, "points: points must be a list of point keys, got None"),
        ({"variant": "5-point", "points": ["high", "low", "jack", "game"]},
         "points: the 5-point game's points are high, low, jack, off_jack, game, got ['high', 'low', 'jack', 'game']"),
        ({"variant": "10-point", "min_bid": 11}, "min_bid: min_bid must be a whole number 1-10, got 11"),
        ({"variant": "custom", "points": ["game"], "min_bid": 2}, "min_bid: min_bid must be a whole number 1-1, got 2"),
        ({"variant": "13-point", "target": 1000}, "target: target must be a whole number 1-999, got 1000"),
        ({"target": None}, "target: target must be a whole number 1-999, got None"),
        ({"min_bid": None}, "min_bid: min_bid must be a whole number 1-4, got None"),
        ({"negative": "no"}, "negative: negative must be true or false, got 'no'"),
    ],
)  # fmt: skip
def test_rules_outside_the_format_are_refused_with_the_field(given, message):
    with pytest.raises(RulesError) as error:
        Rules(**given)
    assert messages(error)[0].startswith(message)
    assert len(error.value.problems) == 1


def test_every_problem_with_the_rules_is_said_at_once():
    with pytest.raises(RulesError) as error:
        Rules(variant="custom", points=["trump"], target=0, going_out="never", negative=1)
    assert [p.field for p in error.value.problems] == ["points", "target", "going_out", "negative"]


def test_a_minimum_bid_may_be_anything_from_1_to_the_total():
    assert Rules(variant="10-point", min_bid=1).bids == tuple(range(1, 11))
    assert Rules(variant="10-point", min_bid=10).bids == (10,)
    assert Rules(min_bid=4).bids == (4,)


def test_the_rules_as_exported_read_back_the_same():
    for name in rules.VARIANTS:
        game_rules = Rules(variant=name, target=99, going_out="made_bid", min_bid=3, steal=False, smudge=True, negative=False)
        assert Rules(**game_rules.as_dict()) == game_rules
    custom = Rules(variant="custom", points=("three", "ace"))
    assert custom.as_dict() == {
        "variant": "custom",
        "points": ["ace", "three"],
        "target": 7,
        "going_out": "pitcher",
        "min_bid": 1,
        "steal": True,
        "smudge": False,
        "negative": True,
    }
    assert Rules(**custom.as_dict()) == custom


def test_the_house_rules_are_what_differs_from_the_variants_own():
    assert Rules(variant="10-point").house == {}
    assert Rules(variant="10-point", target=21).house == {}
    assert Rules(variant="10-point", min_bid=2, negative=False).house == {"min_bid": 2, "negative": False}
    assert Rules(variant="5-point", min_bid=1).house == {"min_bid": 1}
    assert Rules(variant="custom", points=["ace"], min_bid=1).house == {}


# Hands


def test_the_formats_10_point_hand_scores_as_written():
    ten = table("10-point")
    points = {
        "ace": "Dan", "jack": "Bob", "off_jack": None, "big_joker": "Dan",
        "little_joker": "Dan", "ten": "Cat", "three": "Dan", "deuce": "Dan",
    }  # fmt: skip
    bids = (("Bob", 4), ("Cat", None), ("Dan", 6), ("Ann", None))
    scored = score(ten, "Dan", 6, points, bids=bids, dealer="Ann")
    assert scored.won == {"Ann": 0, "Bob": 1, "Cat": 1, "Dan": 7}
    assert scored.delta == scored.won == scored.totals
    assert not scored.set and scored.winner is None
    assert scored.points == points
    assert list(scored.points) == list(ten.rules.points)


def test_each_point_is_worth_its_value():
    nine = table("9-point")
    scored = score(nine, "Bob", 5, {"high": "Ann", "low": "Ann", "jack": None, "five": "Bob", "game": "Cat"})
    assert scored.won == {"Ann": 2, "Bob": 5, "Cat": 1, "Dan": 0}
    thirteen = table("13-point")
    scored = score(thirteen, "Ann", 6, {**every(thirteen, None), "three": "Ann", "off_three": "Ann"})
    assert scored.won["Ann"] == 6 and not scored.set


def test_a_hand_may_award_nothing_when_no_point_was_in_play():
    seven = table("7-point")
    scored = score(seven, "Ann", 2, every(seven, None))
    assert scored.won == dict.fromkeys(SEATS, 0)
    assert scored.set and scored.delta["Ann"] == -2


def test_a_points_key_missing_or_extra_is_refused_where_it_is():
    five = table("5-point")
    with pytest.raises(RulesError) as error:
        rules.replay(five, [Hand("Ann", 2, {"high": "Ann", "low": "Ann", "jack": None, "game": None, "five": "Bob"})])
    assert messages(error) == [
        'hand 1, points: "off_jack" is missing',
        'hand 1, points: "five" is not a point of this game: its points are high, low, jack, off_jack, game',
    ]
    assert error.value.problems[0].template == '"%(key)s" is missing'


@pytest.mark.parametrize("points", [None, ["high", "low", "jack", "game"], "high"])
def test_points_that_are_not_a_mapping_are_refused(points):
    with pytest.raises(RulesError) as error:
        score(table(), "Ann", 2, points)
    assert messages(error) == [f"hand 1, points: points must give the side that won each point, got {points!r}"]


def test_null_is_refused_for_high_and_low_and_allowed_for_every_other_point():
    six = table("6-point")
    with pytest.raises(RulesError) as error:
        score(six, "Ann", 2, {**every(six, None), "low": "Ann"})
    assert messages(error) == ["hand 1, high: High is required"]
    eleven = table("11-point")
    assert score(eleven, "Ann", 4, every(eleven, None)).set


def test_a_point_names_a_side_and_is_said_as_players_say_it():
    with pytest.raises(RulesError) as error:
        score(table("6-point"), "Ann", 2, {"high": "Ann", "low": "Ann", "jack": None, "off_jack": "Zed", "joker": 3, "game": None})
    assert messages(error) == [
        "hand 1, off_jack: Off-jack must name a seated player, got 'Zed'",
        "hand 1, joker: Joker must name a seated player, got 3",
    ]


@pytest.mark.parametrize(
    ("variant", "house", "bid", "message"),
    [
        ("10-point", {}, 3, "bid must be 4-10, got 3"),
        ("10-point", {}, 11, "bid must be 4-10, got 11"),
        ("10-point", {"min_bid": 6}, 5, "this game's house rules make the minimum bid 6, got 5"),
        ("10-point", {"min_bid": 6}, 3, "bid must be 6-10, got 3"),  # The variant does not allow it either.
        ("5-point", {}, 1, "bid must be 2-5, got 1"),
        ("4-point", {"min_bid": 3}, 2, "this game's house rules make the minimum bid 3, got 2"),
        ("4-point", {}, "2", "bid must be 1-4, got '2'"),
    ],
)
def test_a_bid_must_be_from_the_minimum_to_the_total(variant, house, bid, message):
    game = table(variant, **house)
    with pytest.raises(RulesError) as error:
        score(game, "Ann", bid, every(game, "Ann"))
    assert messages(error) == [f"hand 1, bid: {message}"]


def test_a_lower_minimum_bid_than_the_variants_allows_the_bid():
    game = table("10-point", min_bid=1)
    assert score(game, "Ann", 1, {**every(game, None), "ace": "Ann"}).delta["Ann"] == 1


# The auction, with the top bid in the place of 4


def test_the_top_bid_ends_the_auction_and_4_does_not_in_a_bigger_game():
    ten = table("10-point")
    assert rules.allowed_bids(ten, "Dan", [("Ann", 4)]) == (None, 5, 6, 7, 8, 9, 10)
    assert rules.allowed_bids(ten, "Dan", [("Ann", 10)]) == ()
    with pytest.raises(RulesError) as error:
        rules.auction_result(ten, "Dan", [("Ann", 10), ("Bob", None)])
    assert messages(error) == ["bids, bid 2: the auction was already over: a bid of 10 ends it and everyone bids once"]
    assert rules.auction_result(ten, "Dan", [("Ann", 4), ("Bob", None), ("Cat", 8), ("Dan", None)]) == ("Cat", 8)


@pytest.mark.parametrize(
    ("variant", "house", "stuck"),
    [
        ("4-point", {}, (2, 3, 4)),
        ("4-point", {"min_bid": 3}, (3, 4)),
        ("4-point", {"min_bid": 4}, (4,)),
        ("5-point", {}, (2, 3, 4, 5)),
        ("10-point", {}, (4, 5, 6, 7, 8, 9, 10)),
        ("10-point", {"min_bid": 1}, (2, 3, 4, 5, 6, 7, 8, 9, 10)),
    ],
)
def test_a_stuck_dealer_bids_at_least_two_or_the_minimum_bid(variant, house, stuck):
    assert rules.allowed_bids(table(variant, **house), "Dan", [("Ann", None), ("Bob", None), ("Cat", None)]) == stuck


def test_a_stuck_dealer_never_has_to_bid_above_the_total():
    one = Table(seats=("Ann", "Bob"), rules=Rules(variant="custom", points=["game"]))
    assert rules.allowed_bids(one, "Bob", [("Ann", None)]) == (1,)
    assert rules.auction_result(one, "Bob", [("Ann", None), ("Bob", 1)]) == ("Bob", 1)


def test_the_dealer_may_steal_below_the_top_bid_unless_the_steal_is_off():
    bids = [("Ann", 5), ("Bob", None), ("Cat", 7)]
    assert rules.allowed_bids(table("10-point"), "Dan", bids) == (None, 7, 8, 9, 10)
    assert rules.allowed_bids(table("10-point", steal=False), "Dan", bids) == (None, 8, 9, 10)


def test_a_bid_only_a_house_rule_refuses_names_it():
    game = table("10-point", min_bid=6)
    with pytest.raises(RulesError) as error:
        rules.auction_result(game, "Dan", [("Ann", 5)])
    assert messages(error) == [
        "bids, bid 1: Ann may pass or bid 6, 7, 8, 9 or 10, not 5: this game's house rules make the minimum bid 6",
    ]
    assert rules.forbidding_rule(game, "Dan", [], 5) == "min_bid"
    assert rules.forbidding_rule(game, "Dan", [], 3) is None  # Below the variant's own minimum: no house rule.
    # The variant's own minimum is no house rule.
    with pytest.raises(RulesError) as error:
        rules.auction_result(table("5-point"), "Dan", [("Ann", 1)])
    assert messages(error) == ["bids, bid 1: Ann may pass or bid 2, 3, 4 or 5, not 1"]


# Smudge with the top bid


def test_a_smudge_is_the_top_bid_and_every_point_of_the_variant():
    ten = table("10-point", smudge=True)
    scored = score(ten, "Bob", 10, every(ten, "Bob"))
    assert scored.winner == "Bob" and scored.totals["Bob"] == 10 < ten.target
    short = score(ten, "Bob", 10, {**every(ten, "Bob"), "off_jack": None})  # One point not in play: no smudge.
    assert short.winner is None and short.set and short.delta["Bob"] == -10
    nine = table("9-point", smudge=True)
    low_bid = score(nine, "Bob", 8, every(nine, "Bob"))  # Every point, but not the top bid.
    assert low_bid.winner is None and low_bid.delta["Bob"] == 9
    assert score(nine, "Bob", 4, every(nine, "Bob")).winner is None  # 4 is no longer the top bid.


def test_a_smudge_needs_every_point_on_the_pitchers_side_in_partnership_too():
    teams = table("5-point", SEATS, (Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan"))), smudge=True)
    points = {"high": "Ann", "low": "Cat", "jack": "Us", "off_jack": "Cat", "game": "Ann"}
    assert score(teams, "Ann", 5, points).winner == "Us"
    assert score(teams, "Ann", 5, {**points, "game": "Bob"}).winner is None


# No negative scores


def test_without_negative_scores_a_set_stops_at_zero_and_delta_is_the_change():
    game = table(negative=False)
    scored = score(
        game, "Ann", 3, {"high": "Bob", "low": "Bob", "jack": None, "game": "Ann"}, before={"Ann": 2, "Bob": 0, "Cat": 0, "Dan": 0}
    )
    assert scored.set and scored.totals["Ann"] == 0 and scored.delta["Ann"] == -2
    assert scored.delta["Bob"] == 2 == scored.totals["Bob"]
    at_zero = score(game, "Ann", 4, {"high": "Bob", "low": "Bob", "jack": None, "game": None})
    assert at_zero.set and at_zero.totals["Ann"] == 0 and at_zero.delta["Ann"] == 0
    above = score(
        game, "Ann", 2, {"high": "Bob", "low": "Bob", "jack": None, "game": None}, before={"Ann": 5, "Bob": 0, "Cat": 0, "Dan": 0}
    )
    assert above.delta["Ann"] == -2 and above.totals["Ann"] == 3  # Not below 0: set back as usual.


def test_negative_scores_are_the_default():
    scored = score(
        table(), "Ann", 3, {"high": "Bob", "low": "Bob", "jack": None, "game": None}, before={"Ann": 2, "Bob": 0, "Cat": 0, "Dan": 0}
    )
    assert scored.totals["Ann"] == -1 and scored.delta["Ann"] == -3


def test_without_negative_scores_a_game_is_replayed_from_the_floor():
    game = table(negative=False, seats=("Ann", "Bob"))
    played = [
        Hand("Ann", 4, {"high": "Bob", "low": "Bob", "jack": None, "game": None}),  # Ann 0 (not -4), Bob 2.
        Hand("Ann", 2, {"high": "Ann", "low": "Ann", "jack": "Ann", "game": None}),  # Ann 3.
    ]
    result = rules.replay(game, played)
    assert [dict(hand.totals) for hand in result.hands] == [{"Ann": 0, "Bob": 2}, {"Ann": 3, "Bob": 2}]
    assert [dict(hand.delta) for hand in result.hands] == [{"Ann": 0, "Bob": 2}, {"Ann": 3, "Bob": 0}]


# Teams of two and of three


THREE_PAIRS = (Team("Red", ("Ann", "Dan")), Team("Blue", ("Bob", "Eve")), Team("Gold", ("Cat", "Fay")))
TWO_TRIOS = (Team("Odd", ("Ann", "Cat", "Eve")), Team("Even", ("Bob", "Dan", "Fay")))


def test_three_teams_of_two_sit_every_third_seat():
    game = table("5-point", SIX, THREE_PAIRS)
    assert game.sides == ("Red", "Blue", "Gold")
    assert game.side("dan") == "Red" and game.side("Fay") == "Gold"
    scored = score(game, "Eve", 3, {"high": "Bob", "low": "Eve", "jack": "Ann", "off_jack": "Fay", "game": "Blue"})
    assert scored.won == {"Red": 1, "Blue": 3, "Gold": 1} and scored.pitcher_side == "Blue" and not scored.set


def test_two_teams_of_three_sit_every_second_seat():
    game = table("10-point", SIX, TWO_TRIOS)
    assert game.sides == ("Odd", "Even")
    scored = score(game, "Fay", 5, {**every(game, "Ann"), "three": "Dan", "ace": "Bob"})
    assert scored.won == {"Odd": 6, "Even": 4}
    assert scored.set and scored.delta == {"Odd": 6, "Even": -5}


def test_partners_gives_each_shape_its_seating():
    assert rules.partners(SEATS, 2) == (("Ann", "Cat"), ("Bob", "Dan"))
    assert rules.partners(SIX, 3) == (("Ann", "Dan"), ("Bob", "Eve"), ("Cat", "Fay"))
    assert rules.partners(SIX, 2) == (("Ann", "Cat", "Eve"), ("Bob", "Dan", "Fay"))
    for count, size in rules.TEAM_SHAPES:
        seats = SIX[: count * size]
        teams = tuple(Team(f"T{i}", players) for i, players in enumerate(rules.partners(seats, count)))
        assert Table(seats=seats, teams=teams).sides == ("T0", "T1", "T2")[:count]


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ((Team("Red", ("Ann", "Bob")), Team("Blue", ("Cat", "Dan")), Team("Gold", ("Eve", "Fay"))),
         'partners in team "Red" must sit every third seat (seats 1 and 4, 2 and 5, or 3 and 6)'),
        ((Team("Odd", ("Ann", "Bob", "Cat")), Team("Even", ("Dan", "Eve", "Fay"))),
         'partners in team "Odd" must sit every second seat (seats 1, 3 and 5, or 2, 4 and 6)'),
        ((Team("Us", ("Ann", "Dan")), Team("Them", ("Bob", "Eve"))),
         "partnership play needs 2 teams of 2 (4 players), or 3 teams of 2 or 2 teams of 3 (6 players)"),
        ((Team("Us", ("Ann", "Cat", "Eve", "Bob")), Team("Them", ("Dan", "Fay"))),
         "partnership play needs 2 teams of 2 (4 players), or 3 teams of 2 or 2 teams of 3 (6 players)"),
        ((Team("Red", ("Ann", "Dan")), Team("Red", ("Bob", "Eve")), Team("Gold", ("Cat", "Fay"))), "the teams need different names"),
        ((Team("Red", ("Ann", "Dan")), Team("Eve", ("Bob", "Eve")), Team("Gold", ("Cat", "Fay"))),
         'team name "Eve" is also a player\'s name'),
        ((Team("Red", ("Ann", "Dan")), Team("Blue", ("Ann", "Dan")), Team("Gold", ("Cat", "Fay"))),
         "every player must be in exactly one team"),
        ((Team("Red", ("Ann", "Dan")), Team("Blue", ("Bob", "Zed")), Team("Gold", ("Cat", "Fay"))),
         'team "Blue" names a player who is not seated'),
    ],
)  # fmt: skip
def test_teams_of_the_wrong_shape_or_seated_wrong_are_refused(teams, message):
    with pytest.raises(RulesError) as error:
        Table(seats=SIX, teams=teams)
    assert f"teams: {message}" in messages(error)


def test_four_players_cannot_play_in_teams_of_three_nor_six_in_two_teams_of_two():
    with pytest.raises(RulesError, match="partnership play needs"):
        Table(seats=SEATS, teams=(Team("Us", ("Ann", "Cat", "Bob")), Team("Them", ("Dan",))))
    with pytest.raises(RulesError, match="partnership play needs"):
        Table(seats=SIX, teams=(Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan"))))


def test_the_table_as_the_browser_takes_it():
    game = table("7-point", SIX, TWO_TRIOS, negative=False)
    assert game.as_dict() == {
        "seats": list(SIX),
        "sides": ["Odd", "Even"],
        "teams": [{"name": "Odd", "players": ["Ann", "Cat", "Eve"]}, {"name": "Even", "players": ["Bob", "Dan", "Fay"]}],
        "rules": game.rules.as_dict(),
    }


# The problems in words


def test_every_point_has_its_name_in_the_problems_twin():
    for key, point in rules.CATALOGUE.items():
        assert problems.point_name(key) == problems._param("point", key) == point.name == rules.english("point", key)
    assert rules.CATALOGUE["deuce"].name == "Two"


def test_a_new_problem_reads_the_same_through_the_translation_layer_in_english():
    with pytest.raises(RulesError) as error:
        score(table("5-point"), "Ann", 9, {"high": "Ann", "low": None, "jack": None, "game": None})
    assert (
        problems.describe(error.value.problems)
        == str(error.value)
        == ('hand 1, bid: bid must be 2-5, got 9; hand 1, low: Low is required; hand 1, points: "off_jack" is missing')
    )
