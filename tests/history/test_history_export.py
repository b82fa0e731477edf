"""Exporting game history: the JSON document of the spec, tidy CSV in a zip, streamed in few queries."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
import types
import zipfile

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scores.engine import rules
from scores.history import export as history_export
from scores.history import services as history_services
from scores.history.document.writers import _game_text
from scores.leagues.models import League
from scores.standings.selectors.standings import standings as league_standings
from scores.standings.selectors.standings import standings_columns as league_standings_columns
from scores.table import services
from scores.table.models import HandScore, Side
from tests.conftest import hand as rules_hand
from tests.history_docs import SPEC_HAND, V2_RULES, document, dumps, export_text, game, hand, v2_hand, without_export_fields

pytestmark = pytest.mark.django_db


def export(league: League, games=None) -> dict:
    return json.loads("".join(history_export.export_json(games or league.games.all(), league_name=league.name)))


def unzip(of: League, games=None, **kwargs) -> dict[str, list[dict]]:
    data = b"".join(history_export.export_csv_zip(games or of.games.all(), **kwargs))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: list(csv.DictReader(io.StringIO(archive.read(name).decode("utf-8-sig")))) for name in archive.namelist()}


@pytest.fixture
def played_league(league) -> League:
    """Games recorded at the table (through the services): solo, partnership, an auction, a set, one unfinished."""
    solo = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat", "Dan"], code="kitchen", played_on=datetime.date(2026, 11, 27), rules=rules.Rules()
    )
    bids = (("Bob", 2), ("Cat", None), ("Dan", 3), ("Ann", 3))
    services.record_hand(game=solo, hand=rules_hand("Ann", 3, "Ann", "Bob", None, "Dan", dealer="Ann", bids=bids))
    services.record_hand(game=solo, hand=rules_hand("Bob", 4, "Bob", "Bob", "Bob", "Bob"))
    services.record_hand(game=solo, hand=rules_hand("Bob", 2, "Bob", "Cat", None, "Bob"))
    teams = [("Us", ["Ann", "Cat"]), ("Them", ["Bob", "Dan"])]
    paired = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat", "Dan"], teams=teams, code="garage", rules=rules.Rules(target=11)
    )
    services.record_hand(game=paired, hand=rules_hand("Dan", 2, "Cat", "Them", "Ann", None))
    services.record_hand(game=paired, hand=rules_hand("Cat", 1, "Us", "Us", "Us", "Dan"))
    services.start_game(league=league, seats=["Eve", "Fay"], code="empty", played_on=datetime.date(2026, 11, 28), rules=rules.Rules())
    return league


def test_export_is_the_documented_format_with_every_derived_field(played_league):
    doc = export(played_league)

    assert list(doc) == ["format", "version", "exported_at", "league", "games"]
    assert doc["format"] == "pitch-history" and doc["version"] == 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc["exported_at"])
    assert doc["league"] == {"name": "Thursday Pitch"}
    assert [g["id"] for g in doc["games"]] == ["kitchen", "empty", "garage"]  # oldest first
    kitchen = doc["games"][0]
    assert list(kitchen) == ["id", "played_on", "rules", "seats", "hands", "result"]
    assert kitchen["played_on"] == "2026-11-27" and kitchen["rules"] == V2_RULES
    assert kitchen["seats"] == ["Ann", "Bob", "Cat", "Dan"]
    # The spec's Hand example, exactly as the spec writes it, with its points in version 2's object.
    assert kitchen["hands"][0] == {
        **v2_hand(SPEC_HAND),
        "won": {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 1},
        "delta": {"Ann": -3, "Bob": 1, "Cat": 0, "Dan": 1},
        "totals": {"Ann": -3, "Bob": 1, "Cat": 0, "Dan": 1},
        "set": True,
    }
    assert "bids" not in kitchen["hands"][1]  # No auction recorded: no bids key.
    assert kitchen["hands"][1]["dealer"] == "Bob"  # The deal passed to the left.
    assert kitchen["result"] == {"winner": "Bob", "totals": {"Ann": -3, "Bob": 7, "Cat": 1, "Dan": 1}}


def test_partnership_export_names_teams_and_sides(played_league):
    garage = next(g for g in export(played_league)["games"] if g["id"] == "garage")
    assert garage["rules"] == {
        **V2_RULES,
        "target": 11,
        "teams": [{"name": "Us", "players": ["Ann", "Cat"]}, {"name": "Them", "players": ["Bob", "Dan"]}],
    }
    assert list(garage["rules"])[-1] == "teams"
    first = garage["hands"][0]
    assert first["points"] == {"high": "Us", "low": "Them", "jack": "Us", "game": None}
    assert first["delta"] == {"Us": 2, "Them": -2} and first["set"] is True
    assert garage["result"] == {"winner": None, "totals": {"Us": 5, "Them": -1}}


def test_a_game_without_hands_has_zero_totals_and_no_winner(played_league):
    empty = next(g for g in export(played_league)["games"] if g["id"] == "empty")
    assert empty["hands"] == [] and empty["result"] == {"winner": None, "totals": {"Eve": 0, "Fay": 0}}


def test_an_empty_league_exports_a_valid_document(league):
    assert export(league)["games"] == []


def test_one_game_can_be_exported_alone(played_league):
    doc = export(played_league, played_league.games.filter(code="garage"))
    assert [g["id"] for g in doc["games"]] == ["garage"]


def test_round_trip_into_an_empty_league_gives_the_same_games_hands_scores_and_standings(played_league):
    first = export(played_league)
    empty = League.objects.create(name="Restored", slug="restored")

    report = history_services.import_history(league=empty, source=dumps(first))
    again = export(empty)

    assert report.imported == ("kitchen", "empty", "garage")
    assert without_export_fields(again) == without_export_fields(first)
    assert history_export.standings_rows(empty) == history_export.standings_rows(played_league)


def test_the_export_streams_a_game_at_a_time(played_league):
    chunks = history_export.export_json(played_league.games.all(), league_name="x")
    assert isinstance(chunks, types.GeneratorType)
    assert len(list(chunks)) == 3 + 2  # the head, a chunk per game, the end


def import_games(league: League, games: int, hands: int) -> None:
    """Many games of many hands, quickly: through the import."""
    played = [hand(["Ann", "Bob", "Cat"][n % 3], 1, "Ann", "Bob", "Cat") for n in range(hands)]
    history_services.import_history(
        league=league,
        source=dumps(document(*(game(f"g{i}", seats=["Ann", "Bob", "Cat"], hands=played, rules={"target": 99}) for i in range(games)))),
    )


def test_the_document_is_written_from_plain_values_not_from_what_the_driver_returns(played_league):
    """``history.document`` knows nothing of the database: the export reads the rows through the ORM, so a hand's
    ``set`` reaches it as a bool (SQLite stores 0 and 1) and its auction as a list (stored as JSON text)."""
    hands = [row for game in history_export._stored(played_league.games.all()) for row in game.hands]
    assert len(hands) == 5 and {type(row[-1]) for row in hands} == {bool}
    assert [row[4] for row in hands if row[4] is not None] == [[[1, 2], [2, None], [3, 3], [0, 3]]]


@pytest.mark.parametrize(("games", "hands"), [(2, 1), (12, 9)])
def test_json_export_queries_do_not_grow_with_games_or_hands(league, django_assert_num_queries, games, hands):
    import_games(league, games, hands)
    with django_assert_num_queries(5):  # games, sides, seats, hands, scores
        doc = export(league)
    assert len(doc["games"]) == games and all(len(g["hands"]) == hands for g in doc["games"])


@pytest.mark.parametrize(("games", "hands"), [(2, 1), (12, 9)])
def test_csv_export_queries_do_not_grow_with_games_or_hands(league, django_assert_num_queries, games, hands):
    import_games(league, games, hands)
    with CaptureQueriesContext(connection) as standings_queries:
        league_standings(league)
    with CaptureQueriesContext(connection) as columns_queries:
        league_standings_columns(league)
    # The point keys of the games, games.csv one query, hands.csv and scores.csv five each, then standings.csv: the
    # standings' own queries and their columns'.
    with django_assert_num_queries(1 + 1 + 5 + 5 + len(standings_queries) + len(columns_queries)):
        files = unzip(league, league=league)
    assert len(files["hands.csv"]) == games * hands


def test_queries_are_a_fixed_number_per_chunk_of_games(league, django_assert_num_queries, monkeypatch):
    import_games(league, 7, 3)
    monkeypatch.setattr(history_export, "CHUNK_SIZE", 3)
    with django_assert_num_queries(1 + 4 * 3):  # the games, then four queries for each chunk of three
        doc = export(league)
    assert [g["id"] for g in doc["games"]] == [f"g{i}" for i in range(7)]


def test_csv_has_one_row_per_hand_and_one_per_side_per_hand(played_league):
    files = unzip(played_league, league=played_league)

    assert set(files) == {"games.csv", "hands.csv", "scores.csv", "standings.csv"}
    hands = files["hands.csv"]
    assert len(hands) == 5
    assert list(hands[0]) == ["game_id", "played_on", "hand", "dealer", "pitcher", "bid", "high", "low", "jack", "game", "set"]
    assert hands[0] == {
        "game_id": "kitchen", "played_on": "2026-11-27", "hand": "1", "dealer": "Ann", "pitcher": "Ann", "bid": "3",
        "high": "Ann", "low": "Bob", "jack": "", "game": "Dan", "set": "TRUE",
    }  # fmt: skip
    scores = files["scores.csv"]
    assert len(scores) == 3 * 4 + 2 * 2
    assert scores[:4] == [
        {"game_id": "kitchen", "hand": "1", "side": "Ann", "won": "1", "delta": "-3", "total": "-3"},
        {"game_id": "kitchen", "hand": "1", "side": "Bob", "won": "1", "delta": "1", "total": "1"},
        {"game_id": "kitchen", "hand": "1", "side": "Cat", "won": "0", "delta": "0", "total": "0"},
        {"game_id": "kitchen", "hand": "1", "side": "Dan", "won": "1", "delta": "1", "total": "1"},
    ]


def test_standings_csv_is_the_league_standings_of_finished_games(played_league):
    standings = {row["player"]: row for row in unzip(played_league, league=played_league)["standings.csv"]}

    # Only "kitchen" is finished. Bob: +1, +4 (pitched 4, made), +3 (pitched 2, made) = 7, and won;
    # his side won High twice, Low twice, the Jack once, Game twice.
    ratings = {row.name: round(row.rating, 3) for row in league_standings(played_league)}
    assert {name: float(row["rating"]) for name, row in standings.items()} == ratings
    assert ratings["Bob"] > ratings["Ann"]
    bob = standings["Bob"]
    bob.pop("rating")
    assert bob == {
        "player": "Bob", "games": "1", "wins": "1", "win_percent": "100.0", "points": "7", "hands": "3",
        "points_per_hand": "2.333", "hands_pitched": "2", "bids_made": "2", "made_percent": "100.0", "sets": "0",
        "high": "2", "low": "2", "jack": "1", "game": "2", "streak": "1",
    }  # fmt: skip
    # Ann pitched 3 in hand 1 and won only High: set back 3, and nothing after.
    ann = standings["Ann"]
    ann.pop("rating")
    assert ann == {
        "player": "Ann", "games": "1", "wins": "0", "win_percent": "0.0", "points": "-3", "hands": "3",
        "points_per_hand": "-1.0", "hands_pitched": "1", "bids_made": "0", "made_percent": "0.0", "sets": "1",
        "high": "1", "low": "0", "jack": "0", "game": "0", "streak": "-1",
    }  # fmt: skip
    assert "Eve" not in standings  # her only game is not finished
    assert next(iter(standings)) == "Bob"  # Most points first, as on the league page.


def test_a_single_game_zip_has_no_standings(played_league):
    assert set(unzip(played_league, played_league.games.filter(code="kitchen"))) == {"games.csv", "hands.csv", "scores.csv"}


def test_csv_starts_with_a_byte_order_mark_and_keeps_formula_like_names_as_text(league):
    history_services.import_history(
        league=league, source=dumps(document(game(seats=["=SUM(A1)", "Zoë"], hands=[hand("Zoë", 1, "=SUM(A1)")])))
    )
    data = b"".join(history_export.export_csv_zip(league.games.all()))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        raw = archive.read("hands.csv")
    assert raw.startswith(b"\xef\xbb\xbf")
    row = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))[1]
    assert row[3:8] == ["'=SUM(A1)", "Zoë", "1", "'=SUM(A1)", "'=SUM(A1)"]


def test_the_json_export_writes_each_game_exactly_as_its_document_would_be_dumped(played_league):
    # The export writes hand lines from database rows for speed; they must be the documents' JSON, byte for byte.
    games = played_league.games.all()
    text = "".join(history_export.export_json(games, league_name=played_league.name))
    documents = list(history_export.stored_games(games))
    assert any(hand.get("bids") for document in documents for hand in document["hands"])  # An auction, a null bid...
    assert any(hand["points"]["jack"] is None for document in documents for hand in document["hands"])
    assert "\n" + ",\n".join(_game_text(document) for document in documents) + "\n  ]" in text


# Names a JSON writer must escape (quotes, backslashes), not ASCII, or looking like format strings; a tab, which
# no name keeps (scores.engine.names), is in a game id.
ODD = ['Al "Ace" O\'Neil', "C:\\Temp\\{0}", "100% Zoë", "李 🂡 ß"]
US, THEM = "{Us} %s", '"Them" \\'


@pytest.fixture
def odd_league(league) -> League:
    """Games with odd names, an auction with passes, points not in play, an unfinished game, games played in
    another order than they were created, and a partnership whose sides' keys are not in seating order."""
    later = services.start_game(league=league, seats=ODD, code='later\t"one"', played_on=datetime.date(2026, 11, 30), rules=rules.Rules())
    bids = ((ODD[1], None), (ODD[2], 2), (ODD[3], None), (ODD[0], 3))
    services.record_hand(game=later, hand=rules_hand(ODD[0], 3, ODD[0], ODD[0], None, None, dealer=ODD[0], bids=bids))
    services.record_hand(game=later, hand=rules_hand(ODD[2], 2, ODD[2], ODD[3], ODD[2], None))
    paired = services.start_game(
        league=league,
        seats=ODD,
        teams=[(US, ODD[::2]), (THEM, ODD[1::2])],
        code="{0}",
        played_on=datetime.date(2026, 11, 2),
        rules=rules.Rules(target=3),
    )
    services.record_hand(game=paired, hand=rules_hand(ODD[1], 3, THEM, US, None, ODD[0]))
    services.record_hand(game=paired, hand=rules_hand(ODD[0], 2, US, ODD[2], US, THEM))
    us, them = paired.sides.order_by("position")
    Side.objects.filter(pk=us.pk).update(position=2)  # "Them" now sits first: the sides' keys are not in seating order.
    Side.objects.filter(pk=them.pk).update(position=0)
    Side.objects.filter(pk=us.pk).update(position=1)
    for stored in paired.hands.all():  # The hands' points name sides by position: each still names the side it did.
        stored.points = {key: None if position is None else 1 - position for key, position in stored.points.items()}
        stored.save(update_fields=["points"])
    services.start_game(league=league, seats=ODD[:2], code="empty", played_on=datetime.date(2026, 11, 20), rules=rules.Rules())
    return league


def documents_from_models(games) -> list[dict]:
    """The games' documents built the slow, plain way, through the models, to check the export's reader against."""
    documents = []
    for stored in games.order_by("played_on", "pk"):
        sides = list(stored.sides.order_by("position"))
        seats = [seat.player.name for seat in stored.seats.order_by("position").select_related("player")]
        rules_: dict = {"variant": stored.variant, "points": stored.points.split(), "target": stored.target}
        rules_.update(
            going_out=stored.going_out, min_bid=stored.min_bid, steal=stored.steal, smudge=stored.smudge, negative=stored.negative
        )
        if stored.partnership:
            rules_["teams"] = [{"name": s.name, "players": [t.player.name for t in s.seats.order_by("position")]} for s in sides]
        hands = []
        by_position = {s.position: s.name for s in sides} | {None: None}
        for row in stored.hands.order_by("number").select_related("dealer__player", "pitcher__player"):
            score = {s.side_id: s for s in row.scores.all()}
            entry: dict = {"dealer": row.dealer.player.name}
            if row.auction is not None:
                entry["bids"] = [[seats[position], bid] for position, bid in row.auction]
            entry.update(pitcher=row.pitcher.player.name, bid=row.bid)
            entry["points"] = {key: by_position[row.points[key]] for key in stored.points.split()}
            entry.update({field: {s.name: getattr(score[s.pk], column) for s in sides} for field, column in FIGURES})
            entry["set"] = row.set
            hands.append(entry)
        totals = hands[-1]["totals"] if hands else {s.name: 0 for s in sides}
        documents.append(
            {
                "id": stored.code,
                "played_on": stored.played_on.isoformat(),
                "rules": rules_,
                "seats": seats,
                "hands": hands,
                "result": {"winner": stored.winner and stored.winner.name, "totals": totals},
            }
        )
    return documents


FIGURES = (("won", "won"), ("delta", "delta"), ("totals", "total"))


@pytest.mark.parametrize("chunk_size", [1, 2, history_export.CHUNK_SIZE])
def test_the_json_export_is_what_the_models_hold_written_the_plain_way_byte_for_byte(odd_league, monkeypatch, chunk_size):
    monkeypatch.setattr(history_export, "CHUNK_SIZE", chunk_size)
    games = odd_league.games.all()
    expected = documents_from_models(games)
    # The fixture has what it says: games out of creation order, an auction, nulls, a winner, sides out of key order.
    assert [g["id"] for g in expected] == ["{0}", "empty", 'later\t"one"']
    assert expected[2]["hands"][0]["bids"] == [[ODD[1], None], [ODD[2], 2], [ODD[3], None], [ODD[0], 3]]
    assert expected[2]["hands"][0]["points"]["jack"] is None and expected[2]["hands"][0]["points"]["game"] is None
    assert expected[0]["result"] == {"winner": US, "totals": {THEM: -2, US: 5}}
    assert [name for name, _ in sorted(Side.objects.filter(game__code="{0}").values_list("name", "pk"), key=lambda s: s[1])] == [US, THEM]

    assert list(history_export.stored_games(games)) == expected
    at = datetime.datetime(2026, 11, 29, 21, 4, tzinfo=datetime.UTC)
    text = "".join(history_export.export_json(games, league_name='The "Odd" 100% League ✓', exported_at=at))
    assert text == export_text(expected, league_name='The "Odd" 100% League ✓', exported_at="2026-11-29T21:04:00Z")
    assert '\\"Ace\\"' in text and "\\t" in text and "🂡" in text  # Escaped as JSON, not as ASCII.


def test_an_export_stops_when_a_stored_hand_has_lost_a_score(played_league):
    HandScore.objects.filter(hand__game__code="garage", hand__number=2).first().delete()
    with pytest.raises(RuntimeError, match="scores"):
        "".join(history_export.export_json(played_league.games.all(), league_name="x"))
