"""The history format's keys for a game of a number of hands (``rules.hands``) and for a game recorded from paper
(``paper``): written by the export only for such games, read back by the import into the same game (version 2), told
as keys of version 2 in a version 1 document, and checked by the rules engine like any game."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from scores.engine import rules
from scores.history import document as history_document
from scores.history import export, services
from scores.leagues.models import League
from scores.standings.models import PlayerRating
from scores.standings.selectors.standings import standings
from scores.table import services as table_services
from scores.table.models import Game, Seat
from tests.conftest import hand
from tests.history_docs import V2_RULES, document, dumps, game
from tests.totals import kept, recount

pytestmark = pytest.mark.django_db


def exported(league: League) -> dict:
    return json.loads("".join(export.export_json(league.games.all(), league_name=league.name)))


@pytest.fixture
def other_league(db) -> League:
    return League.objects.create(name="Elsewhere", slug="elsewhere")


def _hands_game(league: League) -> Game:
    """Ann and Bob, 2 hands: Bob ahead after them, below the target."""
    played = table_services.start_game(league=league, seats=["Ann", "Bob"], code="short", rules=rules.Rules(hands=2))
    table_services.record_hand(game=played, hand=hand("Ann", 2, "Bob", "Bob"))
    table_services.record_hand(game=played, hand=hand("Bob", 2, "Bob", "Ann"))
    return played


def _paper_game(league: League, hands: int | None = 9) -> Game:
    played = table_services.start_game(
        league=league,
        seats=["Ann", "Bob", "Cat", "Dan"],
        code="paper",
        rules=rules.Rules(),
        teams=[("Us", ["Ann", "Cat"]), ("Them", ["Bob", "Dan"])],
    )
    table_services.record_paper_result(game=played, totals={"Us": 8, "Them": 5}, hands=hands)
    return played


def test_a_game_of_hands_is_written_with_its_number_and_imported_as_it_was(league, other_league):
    played = _hands_game(league)
    assert Game.objects.get(pk=played.pk).winner.name == "Bob"
    written = exported(league)["games"][0]
    assert written["rules"] == {**V2_RULES, "hands": 2}
    assert written["result"] == {"winner": "Bob", "totals": {"Ann": -1, "Bob": 0}}  # Bob ahead, far below the target.
    services.import_history(league=other_league, source=dumps(exported(league)))
    again = Game.objects.get(league=other_league)
    assert again.hands_per_round == 2 and again.winner.name == "Bob" and again.hands.count() == 2
    assert exported(other_league)["games"] == exported(league)["games"]


def test_a_game_from_paper_is_written_with_its_scores_and_hands_and_imported_as_it_was(league, other_league):
    _paper_game(league)
    written = exported(league)["games"][0]
    assert written["hands"] == [] and written["paper"] == {"totals": {"Us": 8, "Them": 5}, "hands": 9}
    assert list(written) == ["id", "played_on", "rules", "seats", "hands", "paper", "result"]
    assert written["result"] == {"winner": "Us", "totals": {"Us": 8, "Them": 5}}
    report = services.import_history(league=other_league, source=dumps(exported(league)))
    assert report.imported == ("paper",)
    again = Game.objects.get(league=other_league)
    assert again.on_paper and again.paper_hands == 9 and again.is_finished and again.winner.name == "Us"
    assert sorted(Seat.objects.filter(game=again).values_list("points", "hands", "paper_games", "paper_points")) == [
        (5, 0, 1, 5), (5, 0, 1, 5), (8, 0, 1, 8), (8, 0, 1, 8),
    ]  # fmt: skip
    assert {row.name: (row.games, row.wins, row.points) for row in standings(other_league)}["Ann"] == (1, 1, 8)
    assert PlayerRating.objects.filter(game=again).count() == 4
    assert kept(other_league) == recount(other_league)
    assert exported(other_league)["games"] == exported(league)["games"]


def test_a_game_from_paper_without_its_number_of_hands_writes_none(league):
    _paper_game(league, hands=None)
    assert exported(league)["games"][0]["paper"] == {"totals": {"Us": 8, "Them": 5}}


def test_the_csv_export_of_a_game_from_paper_has_its_game_row_with_the_winner_and_no_hands(league):
    _paper_game(league)
    archive = zipfile.ZipFile(io.BytesIO(b"".join(export.export_csv_zip(league.games.all()))))
    assert archive.read("hands.csv").decode("utf-8-sig").strip().count("\n") == 0  # The header alone.
    [row] = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode("utf-8-sig"))))
    assert (row["game_id"], row["winner"]) == ("paper", "Us")


def _v2(*games: dict) -> bytes:
    return dumps(document(*games, version=2))


def _paper_doc(paper: object, hands: list | None = None, **rules_) -> dict:
    found = game(seats=["Ann", "Bob"], hands=hands or [], rules={**V2_RULES, **rules_})
    return {**found, "paper": paper}


def _problems(source: bytes) -> list[str]:
    with pytest.raises(history_document.HistoryError) as error:
        history_document.read(source)
    return [str(problem) for problem in error.value.problems]


def test_a_version_2_document_reads_a_game_from_paper():
    [found] = history_document.read(_v2(_paper_doc({"totals": {"Ann": 7, "Bob": 2}, "hands": 5})))
    assert found.on_paper and found.paper_hands == 5 and found.hands == ()
    assert found.result.winner == "Ann" and found.result.totals == {"Ann": 7, "Bob": 2}


@pytest.mark.parametrize(
    ("paper", "hands", "says"),
    [
        ({"totals": {"Ann": 6, "Bob": 2}}, None, 'game "2026-11-27-kitchen", paper.totals.Ann: the game is played to 7, so the winner'),
        ({"totals": {"Ann": 7, "Bob": 7}}, None, "paper.totals: a finished game has one side ahead: Ann, Bob are tied"),
        ({"totals": {"Ann": 7}}, None, "paper.totals: gives no final score for Bob"),
        ({"totals": {"Ann": 7, "Eve": 2}}, None, 'paper.totals: "Eve" is not one of the sides (Ann, Bob), or is given twice'),
        ({"totals": {"Ann": 7, "Bob": 2}, "hands": 0}, None, "paper.hands: the number of hands must be a whole number 1-500, got 0"),
        ({"totals": {"Ann": 30, "Bob": 2}, "hands": 5}, None, "paper.totals.Ann: 30 cannot be scored in 5 hands: a hand awards at most 4"),
        ({"totals": {"Ann": 7, "Bob": 2}, "turns": 5}, None, 'unknown key "turns"'),
        ({"hands": 5}, None, "paper.totals: this key is required"),
        ([7, 2], None, "paper: a result from paper must be an object {...}, got [7, 2]"),
        (
            {"totals": {"Ann": 7, "Bob": 2}},
            [{"pitcher": "Ann", "bid": 2, "points": {"high": "Ann", "low": "Ann", "jack": None, "game": None}}],
            "hands: a game recorded from paper has no hands, got some",
        ),
    ],
)
def test_a_result_from_paper_the_rules_could_not_end_with_is_refused_with_where(paper, hands, says):
    problems = _problems(_v2(_paper_doc(paper, hands)))
    assert any(says in problem for problem in problems), problems


def test_a_game_of_hands_ends_after_them_on_import_and_its_number_is_checked():
    played = [
        {"pitcher": "Ann", "bid": 2, "points": {"high": "Ann", "low": "Ann", "jack": None, "game": None}},
        {"pitcher": "Bob", "bid": 2, "points": {"high": "Ann", "low": "Bob", "jack": None, "game": None}},
    ]
    [found] = history_document.read(_v2(game(seats=["Ann", "Bob"], hands=played, rules={**V2_RULES, "hands": 2})))
    assert found.table.rules.hands == 2 and found.result.winner == "Ann"
    too_many = _problems(_v2(game(seats=["Ann", "Bob"], hands=[*played, played[0]], rules={**V2_RULES, "hands": 2})))
    assert any("hand 3: the game was already over: Ann won on hand 2" in problem for problem in too_many), too_many
    out_of_range = _problems(_v2(game(seats=["Ann", "Bob"], hands=played, rules={**V2_RULES, "hands": 31})))
    assert any("rules.hands: hands must be a whole number 1-30, got 31" in problem for problem in out_of_range), out_of_range


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ({"rules": {"target": 7, "hands": 2}}, 'rules: unknown key "hands" (a key of version 2, and this document is version 1)'),
        ({"paper": {"totals": {"Ann": 7, "Bob": 2}}}, 'unknown key "paper" (a key of version 2, and this document is version 1)'),
    ],
)
def test_a_version_1_document_tells_both_keys_as_version_2s(extra, says):
    problems = _problems(dumps(document(game(seats=["Ann", "Bob"], **extra))))
    assert any(says in problem for problem in problems), problems
