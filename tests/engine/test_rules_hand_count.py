"""A game of a number of hands (``Rules.hands``, a progressive night's rounds), its tie rule, and the check of a result
recorded from paper (``rules.paper_winner``)."""

from __future__ import annotations

import pytest

from scores.engine import rules
from scores.engine.rules import Hand, Rules, RulesError, Table, Team


def teams(**kwargs) -> Table:
    return Table(
        seats=("Ann", "Bob", "Cat", "Dan"), rules=Rules(**kwargs), teams=(Team("Us", ("Ann", "Cat")), Team("Them", ("Bob", "Dan")))
    )


def h(pitcher: str, bid: int, high: str, low: str, jack: str | None = None, game: str | None = None) -> Hand:
    return Hand(pitcher=pitcher, bid=bid, points={"high": high, "low": low, "jack": jack, "game": game})


@pytest.mark.parametrize("hands", [rules.MIN_HANDS, 8, rules.MAX_HANDS])
def test_a_number_of_hands_in_range_is_kept(hands):
    assert Rules(hands=hands).hands == hands


@pytest.mark.parametrize("hands", [0, rules.MAX_HANDS + 1, -3, "4", 4.0, True])
def test_a_number_of_hands_out_of_range_is_refused_in_words(hands):
    with pytest.raises(RulesError, match=f"hands must be a whole number 1-30, got {hands!r}"):
        Rules(hands=hands)


def test_a_game_to_the_target_writes_its_rules_as_before_and_one_of_hands_adds_the_key():
    assert "hands" not in Rules().as_dict()
    played = Rules(hands=4)
    assert played.as_dict()["hands"] == 4
    assert Rules(**played.as_dict()) == played
    assert played.house == {}  # The number of hands is the game's, like its target: no house rule.
    assert played.sheet.hands == 4


def test_the_game_ends_after_its_hands_with_the_side_ahead_winning_and_not_at_the_target():
    table = teams(target=2, hands=3)
    result = rules.replay(table, [h("Ann", 2, "Us", "Us", "Them"), h("Bob", 2, "Us", "Them"), h("Cat", 2, "Us", "Us")])
    assert [scored.winner for scored in result.hands] == [None, None, "Us"]  # Us passed the target on hand 1.
    assert result.totals == {"Us": 5, "Them": -1}


def test_the_side_ahead_wins_even_when_it_did_not_pitch_and_smudge_decides_nothing():
    table = teams(hands=1, smudge=True)
    result = rules.replay(table, [h("Bob", 4, "Us", "Them", "Them", "Them")])  # Them set: -4 against Us's 1.
    assert result.winner == "Us"
    sweep = teams(hands=2, smudge=True)
    assert rules.replay(sweep, [h("Ann", 4, "Us", "Us", "Us", "Us")]).winner is None


def test_a_tie_after_the_hands_is_played_off_a_hand_at_a_time_until_a_side_leads():
    table = teams(hands=2)
    tied = [h("Ann", 2, "Us", "Us"), h("Bob", 2, "Them", "Them")]
    result = rules.replay(table, tied)
    assert result.winner is None and result.totals == {"Us": 2, "Them": 2}
    assert rules.hands_left(table.rules, 2) == 0
    still_tied = rules.replay(table, [*tied, h("Cat", 2, "Us", "Them", "Us", "Them")])
    assert still_tied.winner is None
    decided = rules.replay(table, [*tied, h("Cat", 2, "Us", "Us", "Them")])
    assert decided.winner == "Us" and len(decided.hands) == 3
    with pytest.raises(RulesError, match="the game was already over"):
        rules.replay(table, [*tied, h("Cat", 2, "Us", "Us", "Them"), h("Dan", 2, "Us", "Us")])


def test_at_a_solo_table_the_lead_must_be_one_players_alone():
    table = Table(seats=("Ann", "Bob", "Cat"), rules=Rules(hands=1))
    assert rules.replay(table, [h("Ann", 2, "Bob", "Cat")]).winner is None  # Bob and Cat share the lead.
    assert rules.replay(table, [h("Ann", 2, "Bob", "Bob")]).winner == "Bob"


def test_no_side_is_said_not_out_in_a_game_of_hands():
    assert rules.not_out(Rules(hands=5, target=1), {"Us": 9, "Them": 1}, pitcher_side="Them", winner=None) == {}
    assert rules.not_out(Rules(target=1), {"Us": 9, "Them": 0}, pitcher_side="Them", winner=None) == {"Us": "not_pitcher"}


def test_hands_left_counts_down_and_is_none_for_a_game_to_the_target():
    assert [rules.hands_left(Rules(hands=4), played) for played in (0, 1, 4, 6)] == [4, 3, 0, 0]
    assert rules.hands_left(Rules(), 3) is None


# A result from paper


def test_a_paper_result_of_a_game_to_the_target_is_won_by_the_side_ahead_at_the_target():
    assert rules.paper_winner(Rules(target=11), {"Us": 11, "Them": 7}) == "Us"
    assert rules.paper_winner(Rules(target=11), {"Us": 3, "Them": 12}, hands=5) == "Them"


@pytest.mark.parametrize(
    ("game_rules", "totals", "hands", "says"),
    [
        (Rules(target=11), {"Us": 10, "Them": 7}, None, "the game is played to 11, so the winner has at least 11, not 10"),
        (Rules(target=11), {"Us": 11, "Them": 11}, None, "a finished game has one side ahead: Us, Them are tied"),
        (Rules(target=11), {"Us": 21, "Them": 0}, 5, "21 cannot be scored in 5 hands: a hand awards at most 4"),
        (Rules(target=11, negative=False), {"Us": 11, "Them": -2}, None, "this game's scores never go below zero, got -2"),
        (Rules(target=11), {"Us": 11, "Them": 0}, 0, "the number of hands must be a whole number 1-500, got 0"),
        (Rules(target=11), {"Us": 11, "Them": 0}, 501, "the number of hands must be a whole number 1-500, got 501"),
        (Rules(hands=8), {"Us": 5, "Them": 5}, 8, "a finished game has one side ahead: Us, Them are tied"),
        (Rules(hands=8), {"Us": 5, "Them": 3}, 6, "this game ends after 8 hands, so it cannot have ended after 6"),
        (Rules(target=11), {"Us": "11", "Them": 0}, None, "a score must be a whole number, got '11'"),
    ],
)
def test_a_paper_result_the_rules_could_not_end_a_game_with_is_refused_in_words(game_rules, totals, hands, says):
    with pytest.raises(RulesError) as error:
        rules.paper_winner(game_rules, totals, hands=hands)
    assert says in [problem.message for problem in error.value.problems]


def test_a_paper_result_of_a_game_of_hands_needs_no_target_and_may_have_had_tie_hands():
    assert rules.paper_winner(Rules(hands=8, target=11), {"Us": 5, "Them": 3}) == "Us"
    assert rules.paper_winner(Rules(hands=8), {"Us": 6, "Them": 5}, hands=9) == "Us"


def test_under_smudge_a_paper_winner_below_the_target_may_have_smudged():
    assert rules.paper_winner(Rules(target=11, smudge=True), {"Us": 6, "Them": 2}) == "Us"
