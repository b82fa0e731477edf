"""Importing a history file: every score from the rules engine, every problem listed, all or nothing."""

from __future__ import annotations

import copy
import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scores.history import document as history_document
from scores.history import services
from scores.leagues.models import League, Player
from scores.standings.models import PlayerRating
from scores.table.models import Game, Hand, HandScore, Seat
from tests.history_docs import SEATS, SPEC_HAND, document, dumps, game, hand

pytestmark = pytest.mark.django_db


def problems_of(source) -> list[str]:
    with pytest.raises(history_document.HistoryError) as caught:
        history_document.read(source if isinstance(source, (bytes, str)) else dumps(source))
    return [str(p) for p in caught.value.problems]


def nothing_stored() -> bool:
    return not (Game.objects.exists() or Player.objects.exists() or Hand.objects.exists() or HandScore.objects.exists())


def stored_hand(league: League, game_id: str, number: int) -> tuple[Hand, dict[str, tuple[int, int, int]]]:
    stored = Hand.objects.get(game__league=league, game__code=game_id, number=number)
    scores = {s.side.name: (s.won, s.delta, s.total) for s in stored.scores.select_related("side")}
    return stored, scores


# The spec's examples --------------------------------------------------------------------------


def test_spec_hand_example_scores_as_the_spec_says(league):
    report = services.import_history(league=league, source=dumps(document(game(hands=[SPEC_HAND]))))

    assert report.imported == ("2026-11-27-kitchen",)
    stored, scores = stored_hand(league, "2026-11-27-kitchen", 1)
    # won {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 1}; delta and totals: Ann set back by her bid of 3.
    assert scores == {"Ann": (1, -3, -3), "Bob": (1, 1, 1), "Cat": (0, 0, 0), "Dan": (1, 1, 1)}
    assert stored.set is True
    assert stored.dealer.player.name == "Ann"
    assert stored.auction == [[1, 2], [2, None], [3, 3], [0, 3]]


def test_spec_partnership_example_scores_by_team_and_a_player_means_their_team(league):
    teams = [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}]
    hands = [hand("Ann", 2, high="Cat", low="Us", jack="Dan", game="Them")]
    services.import_history(league=league, source=dumps(document(game(hands=hands, rules={"target": 11, "teams": teams}))))

    stored_game = Game.objects.get(code="2026-11-27-kitchen")
    assert stored_game.partnership and stored_game.target == 11
    _, scores = stored_hand(league, "2026-11-27-kitchen", 1)
    assert scores == {"Us": (2, 2, 2), "Them": (2, 2, 2)}


def test_derived_fields_in_the_file_are_ignored_and_recomputed(league):
    lying = {**SPEC_HAND, "won": {"Ann": 4}, "delta": {"Ann": 4}, "totals": {"Ann": 99}, "set": False}
    doc = game(hands=[lying], result={"winner": "Ann", "totals": {"Ann": 99}})
    services.import_history(league=league, source=dumps(document(doc)))

    stored, scores = stored_hand(league, "2026-11-27-kitchen", 1)
    assert scores["Ann"] == (1, -3, -3) and stored.set is True
    assert not Game.objects.get().is_finished


# What an import stores ------------------------------------------------------------------------


def test_missing_dealer_passes_to_the_left_from_seat_one(league):
    hands = [hand("Bob", 1, "Bob"), {**hand("Cat", 1, "Cat"), "dealer": "Dan"}, hand("Ann", 1, "Ann")]
    services.import_history(league=league, source=dumps(document(game(hands=hands))))

    dealers = list(Hand.objects.order_by("number").values_list("dealer__player__name", flat=True))
    assert dealers == ["Ann", "Dan", "Ann"]


def test_seats_keep_the_files_order(league):
    services.import_history(league=league, source=dumps(document(game(seats=["Dan", "Bob", "Ann"]))))
    assert list(Seat.objects.order_by("position").values_list("player__name", flat=True)) == ["Dan", "Bob", "Ann"]


def test_names_match_existing_players_ignoring_case_and_spaces_and_new_names_create_players(league):
    ann = Player.objects.create(league=league, name="Ann")
    doc = game(seats=["  ann ", "BOB", "Cat"], hands=[hand("ANN", 2, "ann ", "Bob", game="cat")])
    services.import_history(league=league, source=dumps(document(doc)))

    assert Seat.objects.get(position=0).player == ann
    assert sorted(Player.objects.filter(league=league).values_list("name", flat=True)) == ["Ann", "BOB", "Cat"]
    _, scores = stored_hand(league, "2026-11-27-kitchen", 1)
    assert scores["Ann"] == (1, -2, -2)


def test_played_on_defaults_to_the_day_of_import(league):
    doc = game()
    del doc["played_on"]
    services.import_history(league=league, source=dumps(document(doc)))
    assert Game.objects.get().played_on == timezone.localdate()


def test_a_game_played_to_the_end_is_finished_with_its_winner(league):
    hands = [hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"), hand("Bob", 1, "Bob"), hand("Ann", 3, "Ann", "Ann", "Ann")]
    services.import_history(league=league, source=dumps(document(game(hands=hands))))

    stored = Game.objects.get()
    assert stored.is_finished and stored.winner.name == "Ann"
    assert Hand.objects.get(number=3).ends_game


def test_an_imports_queries_do_not_grow_with_its_games_or_hands(league):
    """Stored in bulk: the same statements for one game of one hand as for twelve games of nine hands, every game
    finished (each hand Ann makes her bid of 1 and goes out at the target on the last), so they are rated too."""

    def queries(into: League, games: int, hands: int) -> int:
        played = [hand("Ann", 1, "Ann", "Bob") for _ in range(hands)]
        source = dumps(document(*(game(f"g{i}", seats=["Ann", "Bob", "Cat"], hands=played, rules={"target": hands}) for i in range(games))))
        with CaptureQueriesContext(connection) as captured:
            services.import_history(league=into, source=source)
        return len(captured)

    assert queries(league, 1, 1) == queries(League.objects.create(name="Friday", slug="friday"), 12, 9)
    assert Game.objects.filter(league__slug="friday", status=Game.Status.FINISHED).count() == 12
    assert Hand.objects.filter(game__league__slug="friday").count() == 12 * 9
    assert PlayerRating.objects.filter(game__league__slug="friday").count() == 12 * 3


def test_games_the_league_already_has_are_skipped_and_reported(league):
    source = dumps(document(game("one", hands=[hand("Ann", 1, "Ann")]), game("two")))
    first = services.import_history(league=league, source=source)
    second = services.import_history(league=league, source=dumps(document(game("two"), game("three"))))

    assert first == services.ImportReport(imported=("one", "two"), skipped=())
    assert second == services.ImportReport(imported=("three",), skipped=("two",))
    assert Game.objects.count() == 3 and Hand.objects.count() == 1


def test_importing_the_same_file_twice_changes_nothing(league):
    source = dumps(document(game("one", hands=[SPEC_HAND, hand("Bob", 2, "Bob", "Bob")])))
    services.import_history(league=league, source=source)
    counts = (Game.objects.count(), Hand.objects.count(), HandScore.objects.count(), Player.objects.count())

    report = services.import_history(league=league, source=source)

    assert report.imported == () and report.skipped == ("one",)
    assert (Game.objects.count(), Hand.objects.count(), HandScore.objects.count(), Player.objects.count()) == counts


def test_the_same_ids_in_another_league_are_not_skipped(league):
    other = League.objects.create(name="Friday", slug="friday")
    services.import_history(league=other, source=dumps(document(game("one"))))
    assert services.import_history(league=league, source=dumps(document(game("one")))).imported == ("one",)


def test_optional_document_fields_and_a_byte_order_mark_are_accepted(league):
    doc = document(game(), exported_at="2026-11-29T21:04:00Z", league={"name": "Thursday Pitch"})
    assert services.import_history(league=league, source=b"\xef\xbb\xbf" + dumps(doc)).imported == ("2026-11-27-kitchen",)


# Every problem, with where it is ---------------------------------------------------------------

GAME = "2026-11-27-kitchen"


def mutated(change) -> dict:
    doc = document(game(hands=[copy.deepcopy(SPEC_HAND), hand("Bob", 2, "Bob", "Cat")]))
    change(doc)
    return doc


def set_in(path: tuple, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def delete(path: tuple):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


G0 = ("games", 0)
H1 = (*G0, "hands", 0)
H2 = (*G0, "hands", 1)

INVALID = {
    "unknown document key": (
        set_in(("colour",), "red"),
        'unknown key "colour" (the document has only format, version, exported_at, league, games)',
    ),
    "unknown league key": (set_in(("league",), {"name": "X", "town": "Y"}), 'league: unknown key "town" (the league has only name)'),
    "unknown game key": (
        set_in((*G0, "target"), 7),
        f'game "{GAME}": unknown key "target" (a game has only id, played_on, rules, seats, hands, result)',
    ),
    "unknown rules key": (set_in((*G0, "rules"), {"taget": 11}), f'game "{GAME}", rules: unknown key "taget" (did you mean "target"?)'),
    "unknown hand key": (set_in((*H2, "bidder"), "Bob"), f'game "{GAME}", hand 2: unknown key "bidder" (did you mean "bid"?)'),
    "unknown team key": (
        set_in((*G0, "rules"), {"teams": [{"name": "Us", "players": ["Ann", "Cat"], "x": 1}, {"name": "Them", "players": ["Bob", "Dan"]}]}),
        f'game "{GAME}", rules.teams, team 1: unknown key "x" (a team has only name, players)',
    ),
    "wrong format": (set_in(("format",), "pitch"), 'format: must be "pitch-history", got "pitch"'),
    "wrong version": (set_in(("version",), 3), "version: must be 1 or 2, got 3: this app reads versions 1 and 2"),
    "version as text": (set_in(("version",), "1"), 'version: must be 1 or 2, got "1": this app reads versions 1 and 2'),
    "missing format": (delete(("format",)), "format: this key is required"),
    "missing games": (delete(("games",)), "games: this key is required"),
    "games not a list": (set_in(("games",), {}), "games: must be a list of games [...], got {}"),
    "game not an object": (set_in(G0, "kitchen"), 'game 1: a game must be an object {...}, got "kitchen"'),
    "missing id": (delete((*G0, "id")), "game 1, id: this key is required"),
    "id not text": (set_in((*G0, "id"), 7), "game 1, id: must be the game's id (text), got 7"),
    "bad date": (set_in((*G0, "played_on"), "27/11/2026"), f'game "{GAME}", played_on: must be a date YYYY-MM-DD, got "27/11/2026"'),
    "impossible date": (set_in((*G0, "played_on"), "2026-02-30"), f'game "{GAME}", played_on: must be a date YYYY-MM-DD, got "2026-02-30"'),
    "target too big": (
        set_in((*G0, "rules"), {"target": 100}),
        f'game "{GAME}", rules.target: target must be a whole number 1-99, got 100',
    ),
    "target as text": (
        set_in((*G0, "rules"), {"target": "7"}),
        f"game \"{GAME}\", rules.target: target must be a whole number 1-99, got '7'",
    ),
    "seats not a list": (
        set_in((*G0, "seats"), "Ann, Bob"),
        f'game "{GAME}", seats: must be a list of the players\' names, got "Ann, Bob"',
    ),
    "seat not a name": (set_in((*G0, "seats", 2), 3), f'game "{GAME}", seats, seat 3: must be a player\'s name, got 3'),
    "name too long": (
        set_in((*G0, "seats", 2), "C" * 41),
        f'game "{GAME}", seats, seat 3: "{"C" * 36}... is too long: at most 40 characters',
    ),
    "seated twice": (set_in((*G0, "seats", 2), " ann "), f'game "{GAME}", seats: "ann" is seated twice'),
    "one player": (set_in((*G0, "seats"), ["Ann"]), f'game "{GAME}", seats: a game needs 2 to 7 players, got 1'),
    "teams not opposite": (
        set_in((*G0, "rules"), {"teams": [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cat", "Dan"]}]}),
        f'game "{GAME}", rules.teams: partners in team "Us" must sit opposite each other (seats 1 and 3, or 2 and 4)',
    ),
    "team named like a player": (
        set_in((*G0, "rules"), {"teams": [{"name": "Ann", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}]}),
        f'game "{GAME}", rules.teams: team name "Ann" is also a player\'s name',
    ),
    "the same partners in both teams": (
        set_in((*G0, "rules"), {"teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["cat", "ann"]}]}),
        f'game "{GAME}", rules.teams: every player must be in exactly one team',
    ),
    "empty teams": (
        set_in((*G0, "rules"), {"teams": []}),
        f'game "{GAME}", rules.teams: must list the 2 teams of partnership play (leave it out for solo play), got []',
    ),
    "hands not a list": (set_in((*G0, "hands"), None), f'game "{GAME}", hands: must be a list of hands [...], got null'),
    "hand not an object": (set_in(H2, ["Bob", 2]), f'game "{GAME}", hand 2: a hand must be an object {{...}}, got ["Bob", 2]'),
    "bid too high": (set_in((*H2, "bid"), 5), f'game "{GAME}", hand 2, bid: bid must be 1-4, got 5'),
    "bid as text": (set_in((*H2, "bid"), "2"), f"game \"{GAME}\", hand 2, bid: bid must be 1-4, got '2'"),
    "bid true": (set_in((*H2, "bid"), True), f'game "{GAME}", hand 2, bid: bid must be 1-4, got True'),
    "missing bid": (delete((*H2, "bid")), f'game "{GAME}", hand 2, bid: this key is required'),
    "missing jack": (delete((*H2, "jack")), f'game "{GAME}", hand 2, jack: this key is required (null when the Jack was not in play)'),
    "unknown pitcher": (
        set_in((*H2, "pitcher"), "Zoe"),
        f"game \"{GAME}\", hand 2, pitcher: the pitcher must be a seated player, got 'Zoe'",
    ),
    "unknown name for a point": (set_in((*H2, "game"), "Zoe"), f"game \"{GAME}\", hand 2, game: Game must name a seated player, got 'Zoe'"),
    "high null": (set_in((*H2, "high"), None), f'game "{GAME}", hand 2, high: High is required'),
    "unknown dealer": (set_in((*H2, "dealer"), "Zoe"), f"game \"{GAME}\", hand 2, dealer: the dealer must be a seated player, got 'Zoe'"),
    "dealer null": (
        set_in((*H2, "dealer"), None),
        f'game "{GAME}", hand 2, dealer: must be a seated player\'s name (leave it out when the deal passes to the left), got null',
    ),
    "bids out of turn": (
        set_in((*H1, "bids"), [["Cat", 2], ["Bob", None], ["Dan", 3], ["Ann", 3]]),
        f'game "{GAME}", hand 1, bids, bid 1: Bob bids next, not Cat',
    ),
    "bid not higher": (
        set_in((*H1, "bids"), [["Bob", 2], ["Cat", 2], ["Dan", 3], ["Ann", 3]]),
        f'game "{GAME}", hand 1, bids, bid 2: Cat may pass or bid 3 or 4, not 2',
    ),
    "bid after a pitch": (
        set_in((*H1, "bids"), [["Bob", 4], ["Cat", None]]),
        f'game "{GAME}", hand 1, bids, bid 2: the auction was already over: a bid of 4 ends it and everyone bids once',
    ),
    "stuck dealer passes": (
        set_in((*H1, "bids"), [["Bob", None], ["Cat", None], ["Dan", None], ["Ann", None]]),
        f'game "{GAME}", hand 1, bids, bid 4: Ann may bid 2, 3 or 4, not pass',
    ),
    "auction unfinished": (
        set_in((*H1, "bids"), [["Bob", 2]]),
        f'game "{GAME}", hand 1, bids: the auction is not finished: Cat has not bid',
    ),
    "auction disagrees": (
        set_in((*H1, "pitcher"), "Dan"),
        f'game "{GAME}", hand 1, bids: the auction makes Ann the pitcher with 3, not Dan with 3',
    ),
    "bids not pairs": (
        set_in((*H1, "bids"), ["Bob", 2]),
        f'game "{GAME}", hand 1, bids: must be the auction as [name, bid or null] pairs, like [["Bob", 2], ["Cat", null]], got ["Bob", 2]',
    ),
    "hand after the end": (
        lambda doc: (
            set_in((*G0, "rules"), {"target": 1})(doc),
            set_in((*H2, "bid"), 1)(doc),
            doc["games"][0]["hands"].append(hand("Cat", 1, "Cat")),
        ),
        f'game "{GAME}", hand 3: the game was already over: Bob won on hand 2',
    ),
    "duplicate id": (
        lambda doc: doc["games"].append(game()),
        f'game 2, id: "{GAME}" is also the id of game 1: ids must be unique in the document',
    ),
    "bad exported_at": (
        set_in(("exported_at",), "yesterday"),
        'exported_at: must be a date and time like 2026-11-29T21:04:00Z, got "yesterday"',
    ),
}


@pytest.mark.parametrize(("change", "expected"), INVALID.values(), ids=INVALID.keys())
def test_invalid_document_is_refused_with_the_problem_and_where_it_is(league, change, expected):
    doc = mutated(change)

    with pytest.raises(history_document.HistoryError) as caught:
        services.import_history(league=league, source=dumps(doc))

    assert expected in [str(p) for p in caught.value.problems]
    assert nothing_stored()


def test_the_valid_base_of_the_invalid_cases_imports(league):
    # So each case above fails for its one change only.
    assert services.import_history(league=league, source=dumps(mutated(lambda doc: None))).imported == (GAME,)


def test_a_hand_after_the_end_of_a_game_is_refused(league):
    hands = [hand("Ann", 4, "Ann", "Ann", "Ann", "Ann"), hand("Ann", 3, "Ann", "Ann", "Ann"), hand("Bob", 1, "Bob")]
    assert problems_of(document(game(hands=hands))) == [f'game "{GAME}", hand 3: the game was already over: Ann won on hand 2']


def test_every_problem_in_every_game_is_reported_in_file_order(league):
    doc = document(
        game("a", hands=[hand("Zoe", 5, "Ann"), {**hand("Ann", 1, "Ann"), "colour": "red"}]),
        game("b", seats=["Ann", "ann"], hands=[hand("Ann", 1, "Bob")]),
        game("c"),
    )
    assert problems_of(doc) == [
        "game \"a\", hand 1, pitcher: the pitcher must be a seated player, got 'Zoe'",
        'game "a", hand 1, bid: bid must be 1-4, got 5',
        'game "a", hand 2: unknown key "colour" '
        "(a hand has only dealer, bids, pitcher, bid, high, low, jack, game, won, delta, totals, set)",
        'game "b", seats: "ann" is seated twice',
    ]


def test_problems_in_later_hands_are_found_after_a_bad_hand(league):
    doc = document(game(hands=[hand("Ann", 9, "Ann"), hand("Bob", 1, "Zoe"), {"pitcher": "Cat"}]))
    assert problems_of(doc) == [
        f'game "{GAME}", hand 1, bid: bid must be 1-4, got 9',
        f"game \"{GAME}\", hand 2, high: High must name a seated player, got 'Zoe'",
        f"game \"{GAME}\", hand 2, low: Low must name a seated player, got 'Zoe'",
        f'game "{GAME}", hand 3, bid: this key is required',
        f'game "{GAME}", hand 3, high: this key is required',
        f'game "{GAME}", hand 3, low: this key is required',
        f'game "{GAME}", hand 3, jack: this key is required (null when the Jack was not in play)',
        f'game "{GAME}", hand 3, game: this key is required (null when game was tied)',
    ]


def test_an_unknown_rules_key_does_not_stop_the_hands_being_checked(league):
    doc = document(game(rules={"target": 7, "colour": "red"}, hands=[hand("Ann", 5, "Ann")]))
    assert problems_of(doc) == [
        f'game "{GAME}", rules: unknown key "colour" (a game\'s "rules" has only target, teams, going_out, min_bid, steal, smudge)',
        f'game "{GAME}", hand 1, bid: bid must be 1-4, got 5',
    ]
    assert nothing_stored()


def test_a_game_in_another_format_or_version_is_not_checked_further():
    assert problems_of({"format": "pitch-history", "version": 3, "games": [{"rules": "x"}]}) == [
        "version: must be 1 or 2, got 3: this app reads versions 1 and 2"
    ]


def test_a_key_given_twice_is_refused():
    text = '{"format": "pitch-history", "version": 1, "games": [{"id": "a", "id": "b", "seats": ["Ann", "Bob"], "hands": []}]}'
    assert problems_of(text) == ['game "b", id: the key "id" is given more than once']


TWICE = '{"format": "pitch-history", "version": 1, "games": [{"id": "a", "id": "b", "seats": [SEATS], "hands": []}]}'


@pytest.mark.parametrize(
    ("text", "seats"),
    [
        (TWICE.replace('"seats": ', '"seats" : '), '"Ann", "Bob"'),  # One key given twice, and one key spaced from its colon.
        (TWICE.replace('"seats": ', '"seats"\n\t:'), '"Ann", "Bob"'),
        (TWICE, r'"Ann \"Ace\"", "Bob"'),  # An escaped quote.
        (TWICE, r'"Ann\": \"x", "Bob"'),  # An escaped quote and a colon inside a name: as if one more key were given.
        (TWICE, r'"Ann\\", "Bob"'),  # An escaped backslash before a closing quote.
    ],
    ids=["space before a colon", "new line and tab before a colon", "escaped quotes", "a colon after an escaped quote", "backslash"],
)
def test_a_key_given_twice_is_found_however_the_text_is_written(text, seats):
    assert problems_of(text.replace("SEATS", seats)) == ['game "b", id: the key "id" is given more than once']


def test_a_point_given_twice_in_a_hand_of_version_2_is_found():
    points = '{"high": "Ann", "low": "Ann", "jack": null, "game": "Bob", "high": "Bob"}'
    text = (
        '{"format": "pitch-history", "version": 2, "games": [{"id": "a", "seats": ["Ann", "Bob"], '
        f'"hands": [{{"pitcher": "Ann", "bid": 2, "points": {points}}}]}}]}}'
    )
    assert 'game "a", hand 1, points.high: the key "high" is given more than once' in problems_of(text)


@pytest.mark.parametrize("name", ['Ann "Ace" : the', "Ann : x", 'Ann\\":'])
def test_names_that_look_like_keys_are_read_as_names(league, name):
    doc = document(game(seats=[name, "Bob", "Cat"], hands=[hand(name, 2, name)]))
    report = services.import_history(league=league, source=dumps(doc))
    assert report.imported == (GAME,)
    assert Player.objects.filter(league=league, name=name).exists()


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (b"", "the file is empty"),
        (b" \n\t", "the file is empty"),
        (b"\xff\xfe{}", "the file is not UTF-8 text: byte 1 cannot be read"),
        (
            b'{"format": "pitch-history",',
            "the file is not valid JSON: Expecting property name enclosed in double quotes (line 1, column 28)",
        ),
        (b"format: pitch-history", "the file is not valid JSON: Expecting value (line 1, column 1)"),
        (b'{"version": NaN}', "the file is not valid JSON: NaN is not a number JSON allows"),
        (b"[]", "the document must be an object {...}, got []"),
        (b"\x89PNG\r\n\x1a\n", "the file is not UTF-8 text: byte 1 cannot be read"),
    ],
    ids=["empty", "blank", "not utf-8", "cut short", "not json", "nan", "not an object", "an image"],
)
def test_a_file_that_is_not_a_json_document_gets_one_clear_message(league, source, expected):
    with pytest.raises(history_document.HistoryError) as caught:
        services.import_history(league=league, source=source)
    assert [str(p) for p in caught.value.problems] == [expected]
    assert nothing_stored()


def test_one_bad_game_stores_none_of_the_good_ones(league):
    doc = document(game("good", hands=[SPEC_HAND]), game("bad", hands=[hand("Ann", 7, "Ann")]))
    with pytest.raises(history_document.HistoryError):
        services.import_history(league=league, source=dumps(doc))
    assert nothing_stored()


def test_read_gives_the_engine_inputs_and_dates():
    [found] = history_document.read(dumps(document(game(hands=[SPEC_HAND]))))
    assert found.id == GAME and found.played_on == datetime.date(2026, 11, 27)
    assert found.table.seats == tuple(SEATS) and found.table.target == 7
    assert found.hands[0].bids == (("Bob", 2), ("Cat", None), ("Dan", 3), ("Ann", 3))


def nested_date(depth: int) -> bytes:
    """A file whose game's date is nested in lists ``depth`` deep (so its deepest list is ``depth`` + 3 levels down:
    the document, its games, the game), a lone surrogate innermost (which the reader mends, value by value)."""
    return dumps(document(game(played_on="here"))).replace(b'"here"', b"[" * depth + b'"\\ud800"' + b"]" * depth)


@pytest.mark.parametrize(
    "depth",
    [history_document.MAX_DEPTH - 2, 2_000, 200_000],
    ids=["one level past the limit", "within the parser's reach", "past the parser's reach"],
)
def test_values_nested_deeper_than_a_history_file_goes_are_refused_not_a_crash(league, depth):
    with pytest.raises(history_document.HistoryError) as caught:
        services.import_history(league=league, source=nested_date(depth))
    [problem] = caught.value.problems
    assert str(problem) == f"the file nests values more than {history_document.MAX_DEPTH} levels deep; a history file never goes that deep"
    assert nothing_stored()


def test_values_nested_to_the_limit_are_read_and_refused_for_what_they_are():
    problems = problems_of(nested_date(history_document.MAX_DEPTH - 3))
    assert any(problem.startswith('game "2026-11-27-kitchen", played_on: must be a date YYYY-MM-DD, got [[[[') for problem in problems)


def test_game_problems_come_before_its_hand_problems_even_when_the_table_is_wrong():
    doc = document(game(seats=["Ann", "ANN"], hands=[{**hand("Ann", 1, "Ann"), "x": 1}]))
    assert problems_of(doc) == [
        f'game "{GAME}", seats: "ANN" is seated twice',
        f'game "{GAME}", hand 1: unknown key "x" (a hand has only dealer, '
        "bids, pitcher, bid, high, low, jack, game, won, delta, totals, set)",
    ]


# Version 2: a hand's points ---------------------------------------------------------------------

CABIN = "2026-11-28-cabin"
CABIN_SEATS = ["Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
CABIN_TEAMS = [
    {"name": "North", "players": ["Eve", "Hal"]},
    {"name": "East", "players": ["Fay", "Ivy"]},
    {"name": "West", "players": ["Gus", "Jo"]},
]
# The page's cabin game's first hand (docs/history-format.md): ten-point Pitch, three teams of two, North makes 5 with 6.
CABIN_POINTS = {
    "ace": "North", "jack": "East", "off_jack": None, "big_joker": "North", "little_joker": "West", "ten": "North", "three": "North",
    "deuce": "East",
}  # fmt: skip
P1 = (*G0, "hands", 0, "points")


def v2_mutated(change) -> dict:
    """A version 2 document of a ten-point game of three teams, one hand, changed."""
    rules = {"variant": "10-point", "negative": False, "teams": CABIN_TEAMS}
    hands = [{"pitcher": "Eve", "bid": 5, "points": dict(CABIN_POINTS)}]
    doc = document(game(CABIN, seats=CABIN_SEATS, rules=rules, hands=hands), version=2)
    change(doc)
    return doc


THEIR_POINTS = "ace, jack, off_jack, big_joker, little_joker, ten, three, deuce"
INVALID_POINTS = {
    "a key no catalogue has": (
        set_in((*P1, "queen"), "North"),
        f'game "{CABIN}", hand 1, points: "queen" is not a point of this game: its points are {THEIR_POINTS}',
    ),
    "a point of another variant": (
        set_in((*P1, "high"), "North"),
        f'game "{CABIN}", hand 1, points: "high" is not a point of this game: its points are {THEIR_POINTS}',
    ),
    "a point missing": (delete((*P1, "off_jack")), f'game "{CABIN}", hand 1, points: "off_jack" is missing'),
    "the 4-point game's points": (
        set_in(P1, {"high": "North", "low": "East", "jack": None, "game": "West"}),
        f'game "{CABIN}", hand 1, points: "ace" is missing',
    ),
    "a side that does not exist": (
        set_in((*P1, "ace"), "South"),
        f"game \"{CABIN}\", hand 1, points.ace: Ace must name a team or one of its players, got 'South'",
    ),
    "a side of another game": (
        set_in((*P1, "three"), "Us"),
        f"game \"{CABIN}\", hand 1, points.three: Three must name a team or one of its players, got 'Us'",
    ),
    "points not an object": (
        set_in(P1, ["ace", "North"]),
        f'game "{CABIN}", hand 1, points: a hand\'s points must be an object {{...}}, got ["ace", "North"]',
    ),
    "the points as version 1 keys": (
        lambda doc: (delete(P1)(doc), set_in((*G0, "hands", 0, "jack"), "East")(doc)),
        f'game "{CABIN}", hand 1: unknown key "jack" (version 2 gives a hand\'s points in "points")',
    ),
}


@pytest.mark.parametrize(("change", "expected"), INVALID_POINTS.values(), ids=INVALID_POINTS.keys())
def test_a_version_2_hands_bad_points_are_refused_at_the_point_and_store_nothing(league, change, expected):
    with pytest.raises(history_document.HistoryError) as caught:
        services.import_history(league=league, source=dumps(v2_mutated(change)))

    assert expected in [str(p) for p in caught.value.problems]
    assert nothing_stored()


def test_the_valid_base_of_the_bad_points_imports(league):
    assert services.import_history(league=league, source=dumps(v2_mutated(lambda doc: None))).imported == (CABIN,)
    _, scores = stored_hand(league, CABIN, 1)
    assert scores == {"North": (6, 6, 6), "East": (2, 2, 2), "West": (1, 1, 1)}
