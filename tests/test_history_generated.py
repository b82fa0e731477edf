"""Generated history documents: valid ones round-trip with the rules engine's scores, broken ones store nothing."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scores import history, rules, services
from scores.models import Game, Hand, HandScore, League, Player
from tests.history_docs import document, dumps, export_text, without_export_fields

pytestmark = pytest.mark.django_db

# Names a JSON writer must escape or keep as they are (quotes, a backslash, non-ASCII), or that look like format strings.
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Zoë", "O'Neil", "Li Wei", 'Al "Ace"', "C:\\{0}", "100% 🂡"]
EXPORTED_AT = datetime.datetime(2026, 11, 29, 21, 4, tzinfo=datetime.UTC)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@st.composite
def played_games(draw, game_id: str) -> tuple[dict, rules.Table, list[rules.Hand]]:
    """A game a table could have played: its document, and the engine's inputs for it."""
    seats = draw(st.permutations(NAMES))[: draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))]
    teams = ()
    if len(seats) == 4 and draw(st.booleans()):
        teams = (rules.Team("North", (seats[0], seats[2])), rules.Team("East", (seats[1], seats[3])))
    house = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "going_out": st.sampled_from(rules.GOING_OUT),
                "min_bid": st.sampled_from(rules.MIN_BIDS),
                "steal": st.booleans(),
                "smudge": st.booleans(),
            },
        )
    )
    target = draw(st.sampled_from([7, 11, 15, 21]) | st.integers(1, 99))
    table = rules.Table(seats=tuple(seats), rules=rules.Rules(target=target, **house), teams=teams)
    # A point may name a side or, in partnership play, one of its players.
    points = st.sampled_from([*table.sides, *(seats if teams else [])])
    hands: list[dict] = []
    inputs: list[rules.Hand] = []
    dealer = None
    for _ in range(draw(st.integers(0, 12))):
        given_dealer = draw(st.none() | st.sampled_from(seats))
        dealer = given_dealer or (seats[0] if dealer is None else table.left_of(dealer))
        bids = None
        if draw(st.booleans()):
            bids = []
            while allowed := rules.allowed_bids(table, dealer, bids):
                bids.append((table.bidding_order(dealer)[len(bids)], draw(st.sampled_from(allowed))))
            pitcher, bid = rules.auction_result(table, dealer, bids)
        else:
            pitcher, bid = draw(st.sampled_from(seats)), draw(st.sampled_from(table.rules.bids))
        entry = {"pitcher": pitcher, "bid": bid, "high": draw(points), "low": draw(points)}
        entry.update(jack=draw(points | st.none()), game=draw(points | st.none()))
        if given_dealer is not None:
            entry["dealer"] = given_dealer
        if bids is not None:
            entry["bids"] = [list(pair) for pair in bids]
        hands.append(entry)
        inputs.append(
            rules.Hand(
                dealer=given_dealer,
                bids=tuple(bids) if bids is not None else None,
                **{k: entry[k] for k in rules.POINTS},
                pitcher=pitcher,
                bid=bid,
            )
        )
        if rules.replay(table, inputs).over:
            break
    doc = {"id": game_id, "played_on": draw(st.dates()).isoformat(), "seats": seats, "hands": hands}
    if teams or house or table.target != rules.DEFAULT_TARGET or draw(st.booleans()):
        doc["rules"] = {"target": table.target, **house}  # A house rule left out is the rule sheet's.
        if teams:
            doc["rules"]["teams"] = [{"name": t.name, "players": list(t.players)} for t in teams]
    return doc, table, inputs


@st.composite
def documents(draw, min_games: int = 0) -> tuple[dict, list[tuple[rules.Table, list[rules.Hand]]]]:
    games = [draw(played_games(f"game-{i}")) for i in range(draw(st.integers(min_games, 3)))]
    return document(*(doc for doc, _, _ in games)), [(table, inputs) for _, table, inputs in games]


def exported(league: League) -> dict:
    return json.loads("".join(history.export_json(league.games.all(), league_name=league.name)))


def expected_game(doc: dict, table: rules.Table, inputs: list[rules.Hand]) -> dict:
    """What the export must say of a game: the file's inputs with the rules engine's results."""
    result = rules.replay(table, inputs)
    rules_ = {"target": table.target, "going_out": table.rules.going_out, "min_bid": table.rules.min_bid}
    rules_.update(steal=table.rules.steal, smudge=table.rules.smudge)
    if table.teams:
        rules_["teams"] = [{"name": t.name, "players": list(t.players)} for t in table.teams]
    hands = []
    for scored in result.hands:
        entry = {"dealer": scored.dealer}
        if scored.bids is not None:
            entry["bids"] = [list(pair) for pair in scored.bids]
        entry.update(pitcher=scored.pitcher, bid=scored.bid, high=scored.high, low=scored.low, jack=scored.jack, game=scored.game)
        entry.update(won=dict(scored.won), delta=dict(scored.delta), totals=dict(scored.totals), set=scored.set)
        hands.append(entry)
    return {
        "id": doc["id"],
        "played_on": doc["played_on"],
        "rules": rules_,
        "seats": list(table.seats),
        "hands": hands,
        "result": {"winner": result.winner, "totals": dict(result.totals)},
    }


@pytest.fixture
def rolled_back():
    """Each generated example in its own savepoint, rolled back, so examples do not see each other's rows."""

    class Rollback:
        def __enter__(self):
            self.atomic = transaction.atomic()
            self.atomic.__enter__()

        def __exit__(self, *exc):
            transaction.set_rollback(True)
            return self.atomic.__exit__(*exc)

    return Rollback()


@SETTINGS
@given(generated=documents())
def test_generated_documents_import_with_the_engines_scores_and_round_trip(rolled_back, generated):
    doc, games = generated
    with rolled_back:
        league = League.objects.create(name="Generated", slug="generated")
        report = services.import_history(league=league, source=dumps(doc))
        text = "".join(history.export_json(league.games.all(), league_name=league.name, exported_at=EXPORTED_AT))
        first = json.loads(text)

        assert report.imported == tuple(g["id"] for g in doc["games"])
        by_id = {g["id"]: g for g in first["games"]}
        expected = [expected_game(game_doc, table, inputs) for game_doc, (table, inputs) in zip(doc["games"], games, strict=True)]
        for game in expected:
            assert by_id[game["id"]] == game
        # Byte for byte as written the plain way, oldest first (a stable sort keeps the file's order within a day).
        expected.sort(key=lambda game: game["played_on"])
        assert text == export_text(expected, league_name="Generated", exported_at="2026-11-29T21:04:00Z")
        stored = Game.objects.filter(league=league)
        assert sum(g.is_finished for g in stored) == sum(rules.replay(t, i).over for t, i in games)

        copy_ = League.objects.create(name="Copy", slug="copy")
        services.import_history(league=copy_, source=dumps(first))
        assert without_export_fields(exported(copy_)) == without_export_fields(first)
        assert history.standings_rows(copy_) == history.standings_rows(league)


def _hand_path(doc: dict) -> tuple[int, int] | None:
    for g, game in enumerate(doc["games"]):
        if game["hands"]:
            return g, len(game["hands"]) - 1
    return None


def _set_hand(field, value):
    def change(doc):
        g, h = _hand_path(doc)
        doc["games"][g]["hands"][h][field] = value

    return change, _hand_path


def _drop_hand_key(field):
    def change(doc):
        g, h = _hand_path(doc)
        del doc["games"][g]["hands"][h][field]

    return change, _hand_path


def _after_the_end(doc):
    for game in doc["games"]:
        table = rules.Table(
            seats=tuple(game["seats"]), rules=rules.Rules(**{k: v for k, v in game.get("rules", {}).items() if k != "teams"})
        )
        if not game.get("rules", {}).get("teams") and game["hands"]:
            replayed = rules.replay(
                table,
                [rules.Hand(**{k: h.get(k) for k in ("pitcher", "bid", *rules.POINTS)}, dealer=h.get("dealer")) for h in game["hands"]],
            )
            if replayed.over:
                return game
    return None


def _append_after_the_end(doc):
    game = _after_the_end(doc)
    game["hands"].append(
        {"pitcher": game["seats"][0], "bid": 1, "high": game["seats"][0], "low": game["seats"][0], "jack": None, "game": None}
    )


def _with_games(doc):
    return doc["games"] or None


def _first_game(field, value):
    def change(doc):
        doc["games"][0][field] = value

    return change, _with_games


MUTATIONS = {
    "unknown document key": (lambda doc: doc.update(extra=1), lambda doc: True),
    "unknown game key": (lambda doc: doc["games"][0].update(extra=1), _with_games),
    "unknown hand key": _set_hand("extra", 1),
    "format": (lambda doc: doc.update(format="pitch-history-2"), lambda doc: True),
    "version 2": (lambda doc: doc.update(version=2), lambda doc: True),
    "version 1.0": (lambda doc: doc.update(version=1.0), lambda doc: True),
    "version true": (lambda doc: doc.update(version=True), lambda doc: True),
    "bid 0": _set_hand("bid", 0),
    "bid 5": _set_hand("bid", 5),
    "bid text": _set_hand("bid", "2"),
    "bid fraction": _set_hand("bid", 2.5),
    "pitcher unknown": _set_hand("pitcher", "Nobody"),
    "high unknown": _set_hand("high", "Nobody"),
    "high null": _set_hand("high", None),
    "dealer unknown": _set_hand("dealer", "Nobody"),
    "no pitcher": _drop_hand_key("pitcher"),
    "no low": _drop_hand_key("low"),
    "no game key": _drop_hand_key("game"),
    "bid after the auction": (
        lambda doc: next(h for g in doc["games"] for h in g["hands"] if "bids" in h)["bids"].append([doc["games"][0]["seats"][0], None]),
        lambda doc: any("bids" in h for g in doc["games"] for h in g["hands"]) or None,
    ),
    "hand after the end": (_append_after_the_end, _after_the_end),
    "no id": (lambda doc: doc["games"][0].pop("id"), _with_games),
    "duplicate id": (lambda doc: doc["games"].append(copy.deepcopy(doc["games"][0])), _with_games),
    "one seat": _first_game("seats", ["Solo"]),
    "eight seats": _first_game("seats", [f"P{i}" for i in range(8)]),
    "seated twice": (lambda doc: doc["games"][0]["seats"].append(doc["games"][0]["seats"][0].upper()), _with_games),
    "target 0": _first_game("rules", {"target": 0}),
    "target 100": _first_game("rules", {"target": 100}),
    "bad date": _first_game("played_on", "2026-13-01"),
    "hands not a list": _first_game("hands", {}),
    "games not a list": (lambda doc: doc.update(games={}), lambda doc: True),
}


@SETTINGS
@given(generated=documents(min_games=1), mutation=st.sampled_from(sorted(MUTATIONS)))
def test_broken_documents_are_refused_and_store_nothing(rolled_back, generated, mutation):
    doc, _ = generated
    change, applies = MUTATIONS[mutation]
    if not applies(doc):
        assume(False)  # This document has nothing for this mutation to break (no hands, no auction, no finished game).
    change(doc)
    with rolled_back:
        league = League.objects.create(name="Generated", slug="generated")
        with pytest.raises(history.HistoryError) as caught:
            services.import_history(league=league, source=dumps(doc))

        assert caught.value.problems
        assert all(str(problem) for problem in caught.value.problems)
        assert not (Game.objects.exists() or Player.objects.exists() or Hand.objects.exists() or HandScore.objects.exists())
