"""Card nights' seating planner and standings (scores/engine/planner.py): the remainder policy, fairness, quality, determinism."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scores.engine import planner
from scores.engine.planner import Layout, Line, PlannedTable, Seating, Standing, layout, plan_round
from scores.engine.rules import RulesError

PARTNERSHIP = Seating()
BYES = Seating(leftover="byes")


def night(players, rounds: int, seating: Seating = PARTNERSHIP, seed: int = 0) -> list[planner.Round]:
    """A night of the same players, planned a round at a time as the views will."""
    played: list[planner.Round] = []
    for _ in range(rounds):
        played.append(plan_round(players, [r.tables for r in played], seating=seating, seed=seed))
    return played


def met(rounds: list[planner.Round]) -> tuple[Counter, Counter]:
    """How often each pair were partners, and opponents."""
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for r in rounds:
        for table in r.tables:
            partners.update(frozenset(pair) for pair in table.partners())
            opponents.update(frozenset(pair) for pair in table.opponents())
    return partners, opponents


def partner_repeats(rounds: list[planner.Round]) -> int:
    partners, _ = met(rounds)
    return sum(count - 1 for count in partners.values())


# The remainder policy ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "seating", "expected"),
    [
        (8, PARTNERSHIP, Layout(2, (), 0)),
        (8, BYES, Layout(2, (), 0)),
        (5, PARTNERSHIP, Layout(0, (5,), 0)),
        (5, BYES, Layout(1, (), 1)),
        (6, PARTNERSHIP, Layout(0, (3, 3), 0)),
        (6, BYES, Layout(1, (), 2)),
        (7, PARTNERSHIP, Layout(1, (3,), 0)),
        (7, BYES, Layout(1, (3,), 0)),
        (9, PARTNERSHIP, Layout(1, (5,), 0)),
        (9, BYES, Layout(2, (), 1)),
        (18, PARTNERSHIP, Layout(3, (3, 3), 0)),
        (18, BYES, Layout(4, (), 2)),
        (27, BYES, Layout(6, (3,), 0)),
        (28, PARTNERSHIP, Layout(7, (), 0)),
        (12, Seating(partnership=False), Layout(0, (4, 4, 4), 0)),
        (10, Seating(partnership=False), Layout(0, (4, 3, 3), 0)),
        (9, Seating(partnership=False), Layout(0, (3, 3, 3), 0)),
        (5, Seating(partnership=False), Layout(0, (5,), 0)),
        (8, Seating(partnership=False, solo_size=7), Layout(0, (4, 4), 0)),
        (28, Seating(partnership=False, solo_size=7), Layout(0, (7, 7, 7, 7), 0)),
        (4, Seating(partnership=False, solo_size=3), Layout(0, (4,), 0)),
        (28, Seating(partnership=False, solo_size=3), Layout(0, (4, 3, 3, 3, 3, 3, 3, 3, 3), 0)),
    ],
)
def test_the_tables_a_count_makes(count, seating, expected):
    assert layout(count, seating) == expected


seatings = st.one_of(
    st.builds(Seating, leftover=st.sampled_from(planner.LEFTOVERS)),
    st.builds(Seating, partnership=st.just(False), solo_size=st.integers(planner.MIN_SOLO_SIZE, planner.MAX_SOLO_SIZE)),
)
counts = st.integers(planner.MIN_PLAYERS, planner.MAX_PLAYERS)


@given(counts, seatings)
def test_every_count_is_seated_whole_at_tables_pitch_can_play(count, seating):
    shape = layout(count, seating)
    assert 4 * shape.fours + sum(shape.solo) + shape.byes == count
    assert all(planner.MIN_SOLO_SIZE <= size <= planner.MAX_SOLO_SIZE for size in shape.solo)
    assert shape.byes <= 2
    if seating.partnership:
        assert shape.byes == 0 or seating.leftover == "byes"
        assert sum(shape.solo) <= (0 if shape.byes else 6)
    else:
        assert shape.fours == shape.byes == 0
        assert max(shape.solo) - min(shape.solo) <= 1
        # Never bigger than asked for, unless smaller tables would seat fewer than three.
        assert max(shape.solo) <= seating.solo_size or len(shape.solo) == count // planner.MIN_SOLO_SIZE


@pytest.mark.parametrize("count", [3, 29, 0])
def test_a_night_needs_4_to_28_players(count):
    with pytest.raises(RulesError) as refused:
        plan_round(range(count))
    assert [(p.field, p.message) for p in refused.value.problems] == [("players", f"a card night needs 4 to 28 players, got {count}")]


def test_a_player_listed_twice_is_refused():
    with pytest.raises(RulesError, match="a player is listed twice"):
        plan_round([1, 2, 3, 4, 4])


def test_a_night_has_at_most_27_rounds_the_longest_full_rotation():
    rounds = night(range(8), planner.MAX_ROUNDS)
    with pytest.raises(RulesError, match="a card night has at most 27 rounds"):
        plan_round(range(8), [r.tables for r in rounds])


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"partnership": False, "solo_size": 8}, "solo_size", "a solo table seats 3 to 7 players, got 8"),
        ({"partnership": False, "solo_size": 2}, "solo_size", "a solo table seats 3 to 7 players, got 2"),
        ({"solo_size": "4"}, "solo_size", "a solo table seats 3 to 7 players, got '4'"),
        ({"leftover": "bye"}, "leftover", 'leftover must be "solo" or "byes", got \'bye\''),
    ],
)
def test_a_seating_the_policy_does_not_know_is_refused(options, field, message):
    with pytest.raises(RulesError) as refused:
        Seating(**options)
    assert [(p.field, p.message) for p in refused.value.problems] == [(field, message)]


# Every round is a whole, fair seating -----------------------------------------------------------------------------


@st.composite
def changing_nights(draw):
    """A night whose players change between rounds (someone leaves, someone arrives), with its seating and seed."""
    seating = draw(seatings)
    seed = draw(st.integers(0, 2**32))
    pool = list(range(100, 100 + planner.MAX_PLAYERS + 6))
    present = draw(st.lists(st.sampled_from(pool), min_size=planner.MIN_PLAYERS, max_size=planner.MAX_PLAYERS, unique=True))
    rounds = []
    for _ in range(draw(st.integers(1, 6))):
        rounds.append(list(present))
        leave = draw(st.lists(st.sampled_from(present), max_size=3, unique=True))
        arrive = draw(st.lists(st.sampled_from([p for p in pool if p not in present]), max_size=3, unique=True))
        present = [p for p in present if p not in leave][: planner.MAX_PLAYERS - len(arrive)] + arrive
        if len(present) < planner.MIN_PLAYERS:
            present += [p for p in pool if p not in present][: planner.MIN_PLAYERS - len(present)]
    return seating, seed, rounds


@settings(max_examples=60, deadline=None)
@given(changing_nights())
def test_each_round_seats_everyone_present_once_as_the_policy_says(drawn):
    seating, seed, presents = drawn
    history: list[tuple[PlannedTable, ...]] = []
    for present in presents:
        r = plan_round(present, history, seating=seating, seed=seed)
        seated = [p for table in r.tables for p in table.seats]
        assert sorted(seated + list(r.byes)) == sorted(present)
        shape = layout(len(present), seating)
        assert [len(t.seats) for t in r.tables] == [4] * shape.fours + list(shape.solo)
        assert len(r.byes) == shape.byes
        for table in r.tables[: shape.fours]:
            s = table.seats
            assert table.teams == ((s[0], s[2]), (s[1], s[3]))  # Partners sit opposite.
        assert all(not table.teams for table in r.tables[shape.fours :])
        solo = tuple(p for table in r.tables[shape.fours :] for p in table.seats)
        if r.byes:
            expected = [("bye", r.byes)]
        elif seating.partnership and solo:
            expected = [("solo", solo)]
        elif not seating.partnership and len(present) % seating.solo_size:
            expected = [("uneven", ())]
        else:
            expected = []
        assert [(note.kind, note.players) for note in r.notes] == expected
        history.append(r.tables)


@settings(max_examples=60, deadline=None)
@given(changing_nights())
def test_byes_and_solo_seats_go_to_those_who_have_played_the_most(drawn):
    """Nobody sits out while someone present has played more rounds (a round missed counts as one sat out); in a
    partnership night nobody plays solo while someone at a table of four has played more rounds at tables of four."""
    seating, seed, presents = drawn
    history: list[tuple[PlannedTable, ...]] = []
    for present in presents:
        played = Counter(p for tables in history for t in tables for p in t.seats)
        at_fours = Counter(p for tables in history for t in tables if t.teams for p in t.seats)
        r = plan_round(present, history, seating=seating, seed=seed)
        playing = [p for t in r.tables for p in t.seats]
        if r.byes:
            assert min(played[p] for p in r.byes) >= max(played[p] for p in playing)
        solo = [p for t in r.tables if not t.teams for p in t.seats]
        fours = [p for t in r.tables if t.teams for p in t.seats]
        if seating.partnership and solo and fours:
            assert min(at_fours[p] for p in solo) >= max(at_fours[p] for p in fours)
        history.append(r.tables)


def test_nobody_sits_out_twice_before_everyone_has_sat_out_once():
    rounds = night(range(9), 9, BYES, seed=3)
    byes: Counter = Counter()
    for r in rounds:
        byes.update(r.byes)
        assert max(byes.values()) - min(byes[p] for p in range(9)) <= 1
    assert byes == Counter(range(9))


def test_the_solo_table_goes_round_a_partnership_night():
    """Nine players, leftover solo: five at a solo table each round; over nine rounds each plays solo five times."""
    rounds = night(range(9), 9, PARTNERSHIP, seed=5)
    solo = Counter(p for r in rounds for t in r.tables if not t.teams for p in t.seats)
    assert solo == Counter(dict.fromkeys(range(9), 5))


def test_a_late_arrival_is_not_given_a_bye_while_the_others_have_sat_out_less():
    early = night(range(8), 2)
    history = [r.tables for r in early]
    for _ in range(6):
        r = plan_round(range(9), history, seating=BYES, seed=11)
        assert r.byes != (8,)
        history.append(r.tables)


# Determinism ------------------------------------------------------------------------------------------------------


def test_the_same_seed_players_and_rounds_give_the_same_round():
    history = [r.tables for r in night(range(1, 14), 3, BYES, seed=42)]
    first = plan_round(range(1, 14), history, seating=BYES, seed=42)
    assert plan_round(reversed(range(1, 14)), history, seating=BYES, seed=42) == first
    assert plan_round(range(1, 14), history, seating=BYES, seed=43) != first


def test_a_night_continued_from_its_stored_rounds_is_the_night_planned_at_once():
    planned = night(range(16), 5, seed=7)
    continued = plan_round(range(16), [r.tables for r in planned[:4]], seed=7)
    assert continued == planned[4]


# Quality ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_eight_players_partner_each_other_player_once_in_seven_rounds(seed):
    rounds = night(range(8), 7, seed=seed)
    partners, opponents = met(rounds)
    assert partners == Counter({frozenset(pair): 1 for pair in itertools.combinations(range(8), 2)})
    assert len(opponents) == 28  # Everyone has faced everyone.
    assert max(opponents.values()) <= 3  # Two each, if it could be perfect.
    assert partner_repeats(rounds[:3]) == 0
    assert max(met(rounds[:3])[1].values()) == 1  # Over three rounds nobody faces the same opponent twice.


@pytest.mark.parametrize(("count", "seed"), [(c, s) for c in (12, 16) for s in range(5)])
def test_twelve_and_sixteen_players_over_five_rounds(count, seed):
    rounds = night(range(count), 5, seed=seed)
    partners, opponents = met(rounds)
    assert max(partners.values()) == 1
    assert max(opponents.values()) <= 2


@pytest.mark.parametrize("seed", range(5))
def test_opponents_spread_over_a_long_night(seed):
    """Sixteen players, eight rounds: 128 pairings of opponents over 120 pairs, none met more than twice."""
    _partners, opponents = met(night(range(16), 8, seed=seed))
    assert max(opponents.values()) == 2
    assert sum(opponents.values()) == 128


@settings(max_examples=40, deadline=None, derandomize=True)
@given(counts, st.sampled_from(planner.LEFTOVERS), st.integers(0, 2**32))
def test_partners_do_not_repeat_while_there_are_new_ones(count, leftover, seed):
    """No partner repeats in the first three rounds (four players have only three partners), nor with eight or more
    players in the first five."""
    rounds = night(range(count), 3 if count < 8 else 5, Seating(leftover=leftover), seed)
    assert partner_repeats(rounds) == 0


def _all_seatings_of_eight():
    """Every way to seat eight players at two tables of four in partnership (who partners and who opposes whom)."""
    seen = set()
    for order in itertools.permutations(range(1, 8)):
        seats = (0, *order)
        teams = frozenset(frozenset(frozenset(seats[t + k :: 2][:2]) for k in (0, 1)) for t in (0, 4))
        if teams not in seen:
            seen.add(teams)
            yield [PlannedTable(seats[t : t + 4], ((seats[t], seats[t + 2]), (seats[t + 1], seats[t + 3]))) for t in (0, 4)]


SEATINGS_OF_EIGHT = list(_all_seatings_of_eight())


def _cost(tables, history) -> tuple[int, int]:
    """Partner repeats first, then opponent repeats: the times each pair met before, squared, summed."""
    partners, opponents = met([planner.Round(tuple(t)) for t in history])
    return (
        sum(partners[frozenset(p)] ** 2 for t in tables for p in t.partners()),
        sum(opponents[frozenset(p)] ** 2 for t in tables for p in t.opponents()),
    )


def test_eight_players_can_be_seated_315_ways():
    assert len(SEATINGS_OF_EIGHT) == 315  # 105 ways to pair them, 3 to put the pairs at two tables.


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(range(len(SEATINGS_OF_EIGHT))), min_size=1, max_size=8), st.integers(0, 2**32))
def test_for_eight_players_the_planner_finds_the_best_seating(past, seed):
    """After any rounds played, the round planned is as good as the best of all 315 seatings: fewest partner
    repeats, then fewest opponent repeats."""
    history = [SEATINGS_OF_EIGHT[i] for i in past]
    planned = plan_round(range(8), history, seed=seed)
    assert _cost(planned.tables, history) == min(_cost(tables, history) for tables in SEATINGS_OF_EIGHT)


def test_a_partner_repeat_is_worse_than_any_opponent_repeat():
    """0-3 and 4-7 have played among themselves only, each partnering every other of their four. Now no seating of
    the eight avoids both repeats: facing only new opponents means partnering an old partner. The planner takes new
    partners and repeats opponents."""
    matchings = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    history = [(PlannedTable((0, 1, 2, 3)), PlannedTable((4, 5, 6, 7)))]
    for (a, c), (b, d) in matchings:
        history.append(
            (PlannedTable((a, b, c, d), ((a, c), (b, d))), PlannedTable((a + 4, b + 4, c + 4, d + 4), ((a + 4, c + 4), (b + 4, d + 4))))
        )
    r = plan_round(range(8), history)
    partners, opponents = met([planner.Round(tables) for tables in history])
    assert not any(frozenset(pair) in partners for t in r.tables for pair in t.partners())
    assert any(frozenset(pair) in opponents for t in r.tables for pair in t.opponents())
    # Seated by opponents alone, it would have had none to repeat.
    assert any(not any(frozenset(pair) in opponents for t in tables for pair in t.opponents()) for tables in SEATINGS_OF_EIGHT)


# Notes: what a round did with the players left over ---------------------------------------------------------------

NAMES = dict(enumerate(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"]))


def test_a_count_that_divides_has_nothing_to_say():
    assert plan_round(range(8)).notes == ()
    assert plan_round(range(12), seating=Seating(partnership=False)).notes == ()


def test_one_bye_is_said():
    r = plan_round(range(9), seating=BYES, seed=1)
    [note] = r.notes
    assert (note.kind, note.players) == ("bye", r.byes)
    assert note.english(NAMES) == f"{NAMES[r.byes[0]]} sits out this round: the tables of four leave one player over."


def test_two_byes_are_said():
    r = plan_round(range(10), seating=BYES, seed=1)
    [note] = r.notes
    first, second = r.byes
    assert (note.kind, note.players) == ("bye", (first, second))
    assert note.english(NAMES) == f"{NAMES[first]} and {NAMES[second]} sit out this round: the tables of four leave two players over."


@pytest.mark.parametrize(
    ("count", "seating", "ending"),
    [
        (9, PARTNERSHIP, "play solo at a table of five: the tables of four would leave one player over."),
        (10, PARTNERSHIP, "play solo at two tables of three: the tables of four would leave two players over."),
        (11, PARTNERSHIP, "play solo at a table of three: the tables of four leave three players over."),
        (11, BYES, "play solo at a table of three: the tables of four leave three players over."),
    ],
)
def test_solo_tables_in_a_partnership_night_are_said(count, seating, ending):
    r = plan_round(range(count), seating=seating)
    [note] = r.notes
    solo = tuple(p for t in r.tables if not t.teams for p in t.seats)
    assert (note.kind, note.players) == ("solo", solo)
    names = [NAMES[p] for p in solo]
    assert note.english(NAMES) == ", ".join(names[:-1]) + " and " + names[-1] + " " + ending
    assert note.template.startswith("%(players)s ")


def test_a_stored_round_says_the_same_as_when_it_was_planned():
    """The pages show a round's notes from its stored games and byes, without planning it again."""
    stored = (PlannedTable((0, 1, 2, 3), ((0, 2), (1, 3))), PlannedTable((4, 5, 6, 7), ((4, 6), (5, 7))))
    [note] = planner.notes(stored, (8,), BYES)
    assert note.english(NAMES) == "Ivy sits out this round: the tables of four leave one player over."
    stored = (PlannedTable((0, 1, 2, 3), ((0, 2), (1, 3))), PlannedTable((4, 5, 6)))
    [note] = planner.notes(stored, (), PARTNERSHIP)
    assert note.english(NAMES) == "Eve, Fay and Gus play solo at a table of three: the tables of four leave three players over."
    assert planner.notes(stored[:1], (), PARTNERSHIP) == ()


def test_a_solo_night_that_does_not_divide_says_its_tables():
    [note] = plan_round(range(10), seating=Seating(partnership=False)).notes
    assert (note.kind, note.players) == ("uneven", ())
    assert note.english(NAMES) == "10 players do not make whole tables of 4: this round's tables seat 4, 3 and 3."
    assert note.template == "%(count)s players do not make whole tables of %(size)s: this round's tables seat %(sizes)s."


# The night's standings --------------------------------------------------------------------------------------------


def test_standings_total_each_players_games_and_share_tied_ranks():
    lines = [
        # A partnership table: Ann and Cat (1, 3) won with 11, Bob and Dan (2, 4) lost with 6; each partner is credited.
        Line(1, True, 11, 1),
        Line(3, True, 11, 0),
        Line(2, False, 6, 2),
        Line(4, False, 6, 0),
        # A solo table.
        Line(5, True, 7),
        Line(6, False, -2, 3),
        Line(7, False, 6),
        # Round two.
        Line(5, False, 4),
        Line(2, True, 4),
    ]
    assert planner.standings(lines, players=[8]) == (
        Standing(rank=1, player=1, games=1, wins=1, points=11, sets=1),
        Standing(rank=1, player=3, games=1, wins=1, points=11, sets=0),
        Standing(rank=1, player=5, games=2, wins=1, points=11, sets=0),
        Standing(rank=4, player=2, games=2, wins=1, points=10, sets=2),
        Standing(rank=5, player=4, games=1, wins=0, points=6, sets=0),
        Standing(rank=5, player=7, games=1, wins=0, points=6, sets=0),
        Standing(rank=7, player=8, games=0, wins=0, points=0, sets=0),
        Standing(rank=8, player=6, games=1, wins=0, points=-2, sets=3),
    )


def test_the_standings_of_a_night_without_a_finished_game_list_everyone_present_first_equal():
    assert [(s.rank, s.player, s.games) for s in planner.standings([], players=[3, 1, 2])] == [(1, 1, 0), (1, 2, 0), (1, 3, 0)]


lines = st.builds(Line, st.integers(1, 12), st.booleans(), st.integers(-30, 60), st.integers(0, 9))


@given(st.lists(lines, max_size=60))
def test_standings_keep_every_figure_and_rank_by_wins_then_points(drawn):
    rows = planner.standings(drawn)
    assert sorted(r.player for r in rows) == sorted({line.player for line in drawn})
    assert sum(r.games for r in rows) == len(drawn)
    assert sum(r.wins for r in rows) == sum(line.won for line in drawn)
    assert sum(r.points for r in rows) == sum(line.points for line in drawn)
    assert sum(r.sets for r in rows) == sum(line.sets for line in drawn)
    for row in rows:
        assert row.rank == 1 + sum((other.wins, other.points) > (row.wins, row.points) for other in rows)
    assert [(r.wins, r.points) for r in rows] == sorted(((r.wins, r.points) for r in rows), reverse=True)
