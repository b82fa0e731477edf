"""Version-1 files exported before the Pitch family came import unchanged: the same games, hands and scores.

tests/data holds two such exports, made by the app as it was: its demo league, and a league of every house rule
(going out only by making the bid, a minimum bid of 2, no steal, smudge) with partnership games, auctions, a
game in progress, an empty one and names a JSON writer must escape.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scores.history import export as history_export
from scores.history import services
from scores.leagues.models import League
from scores.table.models import Game
from tests.history_docs import v2_game

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent.parent / "data"
FILES = ["v1-demo-league.json", "v1-house-rules.json"]


@pytest.fixture(params=FILES)
def kept(request) -> tuple[bytes, dict]:
    source = (DATA / request.param).read_bytes()
    return source, json.loads(source)


def stored(league: League) -> dict[str, dict]:
    """Each game as stored, read the plain way through the models: its rules, seats, hands and every score."""
    games = {}
    for game in Game.objects.filter(league=league):
        sides = {side.position: side.name for side in game.sides.all()} | {None: None}
        hands = []
        for hand in game.hands.order_by("number").select_related("dealer__player", "pitcher__player"):
            scores = {score.side.name: (score.won, score.delta, score.total) for score in hand.scores.select_related("side")}
            points = {key: sides[position] for key, position in hand.points.items()}
            hands.append((hand.dealer.player.name, hand.pitcher.player.name, hand.bid, hand.auction, points, hand.set, scores))
        seats = [seat.player.name for seat in game.seats.order_by("position").select_related("player")]
        games[game.code] = {"rules": game.rules.as_dict(), "seats": seats, "hands": hands, "winner": game.winner and game.winner.name}
    return games


def from_the_file(game: dict) -> dict:
    """The same, as the file says it."""
    hands = [
        (
            hand["dealer"],
            hand["pitcher"],
            hand["bid"],
            [[game["seats"].index(name), bid] for name, bid in hand["bids"]] if "bids" in hand else None,
            {key: hand[key] for key in ("high", "low", "jack", "game")},
            hand["set"],
            {side: (hand["won"][side], hand["delta"][side], hand["totals"][side]) for side in hand["won"]},
        )
        for hand in game["hands"]
    ]
    rules_ = {key: value for key, value in v2_game(game)["rules"].items() if key != "teams"}
    return {"rules": rules_, "seats": game["seats"], "hands": hands, "winner": game["result"]["winner"]}


def test_a_version_1_file_imports_unchanged(kept):
    source, document = kept
    league = League.objects.create(name="Kept", slug="kept")
    report = services.import_history(league=league, source=source)
    assert report.imported == tuple(game["id"] for game in document["games"]) and report.skipped == ()
    assert stored(league) == {game["id"]: from_the_file(game) for game in document["games"]}
    assert sum(len(game["hands"]) for game in document["games"]) > 50  # Real leagues: many hands, every rule.


def test_its_export_is_the_same_games_in_version_2(kept):
    source, document = kept
    league = League.objects.create(name="Kept", slug="kept")
    services.import_history(league=league, source=source)
    exported = json.loads("".join(history_export.export_json(league.games.all(), league_name=league.name)))
    assert exported["version"] == 2
    assert exported["games"] == [v2_game(game) for game in document["games"]]


def test_importing_it_again_skips_every_game(kept):
    source, document = kept
    league = League.objects.create(name="Kept", slug="kept")
    services.import_history(league=league, source=source)
    again = services.import_history(league=league, source=source)
    assert again.imported == () and again.skipped == tuple(game["id"] for game in document["games"])
    assert Game.objects.filter(league=league).count() == len(document["games"])
