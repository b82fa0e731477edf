"""Generated history documents: valid ones round-trip with the rules engine's scores, broken ones store nothing."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scores.engine import rules
from scores.history import document as history_document
from scores.history import export as history_export
from scores.history import services
from scores.leagues.models import League, Player
from scores.table.models import Game, Hand, HandScore
from tests.history_docs import document, dumps, export_text, without_export_fields

pytestmark = pytest.mark.django_db

# Names a JSON writer must escape or keep as they are (quotes, a backslash, non-ASCII), or that look like format strings.
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Zoë", "O'Neil", "Li Wei", 'Al "Ace"', "C:\\{0}", "100% 🂡"]
EXPORTED_AT = datetime.datetime(2026, 11, 29, 21, 4, tzinfo=datetime.UTC)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _house(draw, total: int, version: int) -> dict:
    """House rules a table may choose, each left out (the default) or given."""
    optional = {
        "going_out": st.sampled_from(rules.GOING_OUT),
        "min_bid": st.sampled_from(history_document.V1_MIN_BIDS) if version == 1 else st.integers(1, total),
        "steal": st.booleans(),
        "smudge": st.booleans(),
    }
    if version == 2:
        optional["negative"] = st.booleans()
    return draw(st.fixed_dictionaries({}, optional=optional))


# Kept whole (C901, PLR0912, PLR0915): one game drawn whole, each draw depending on those before it (seats, rules, hands).
@st.composite
def played_games(draw, game_id: str, version: int) -> tuple[dict, rules.Table, list[rules.Hand]]:  # noqa: C901, PLR0912, PLR0915
    """A game a table could have played, as a document of ``version`` writes it, and the engine's inputs for it.

    Version 1: the 4-point game, solo or two teams of two, its own limits. Version 2: any named variant or a custom
    set of points, solo or any team shape, every house rule (``negative`` too), targets up to 999."""
    names = draw(st.permutations(NAMES))
    variant, given_points = rules.DEFAULT_VARIANT, None
    shape = None
    if version == 1:
        seats = names[: draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))]
        if len(seats) == 4 and draw(st.booleans()):
            shape = (2, 2)
        base = rules.Rules()
        target = draw(st.sampled_from([7, 11, 15, 21]) | st.integers(1, 99))
    else:
        variant = draw(st.sampled_from([*rules.VARIANTS, rules.CUSTOM.name]))
        if variant == rules.CUSTOM.name:
            given_points = draw(st.lists(st.sampled_from(list(rules.CATALOGUE)), min_size=1, unique=True))
        elif draw(st.booleans()):  # A named variant's points may be given, in any order.
            given_points = draw(st.permutations(rules.VARIANTS[variant].points))
        base = rules.Rules(variant=variant, points=given_points) if given_points is not None else rules.Rules(variant=variant)
        shape = draw(st.none() | st.sampled_from(rules.TEAM_SHAPES))
        seats = names[: shape[0] * shape[1]] if shape else names[: draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))]
        target = draw(st.sampled_from([base.target, 1, 11]) | st.integers(1, 60) | st.integers(1, rules.MAX_TARGET))
    teams = ()
    if shape is not None:
        team_names = ["North", "East", "South"]
        teams = tuple(rules.Team(team_names[i], players) for i, players in enumerate(rules.partners(seats, shape[0])))
    house = _house(draw, base.total, version)
    played_by = rules.Rules(variant=variant, points=base.points, target=target, **house)
    table = rules.Table(seats=tuple(seats), rules=played_by, teams=teams)
    # A point may name a side or, in partnership play, one of its players.
    side = st.sampled_from([*table.sides, *(seats if teams else [])])
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
        points = {point.key: draw(side | st.none()) if point.optional else draw(side) for point in table.rules.kinds}
        entry: dict = {"pitcher": pitcher, "bid": bid}
        entry.update(points if version == 1 else {"points": points})
        if given_dealer is not None:
            entry["dealer"] = given_dealer
        if bids is not None:
            entry["bids"] = [list(pair) for pair in bids]
        hands.append(entry)
        inputs.append(
            rules.Hand(pitcher=pitcher, bid=bid, points=points, dealer=given_dealer, bids=tuple(bids) if bids is not None else None)
        )
        if rules.replay(table, inputs).over:
            break
    doc = {"id": game_id, "played_on": draw(st.dates()).isoformat(), "seats": seats, "hands": hands}
    if teams or house or given_points is not None or variant != rules.DEFAULT_VARIANT or target != base.target or draw(st.booleans()):
        # A rule left out is its default: the variant's, or the rule sheet's.
        doc["rules"] = {"target": target, **house}
        if version == 2 and (variant != rules.DEFAULT_VARIANT or draw(st.booleans())):
            doc["rules"]["variant"] = variant
        if given_points is not None:
            doc["rules"]["points"] = list(given_points)
        if teams:
            doc["rules"]["teams"] = [{"name": t.name, "players": list(t.players)} for t in teams]
    return doc, table, inputs


@st.composite
def documents(draw, min_games: int = 0, version: int | None = None) -> tuple[dict, list[tuple[rules.Table, list[rules.Hand]]]]:
    version = version or draw(st.sampled_from(history_document.VERSIONS))
    games = [draw(played_games(f"game-{i}", version)) for i in range(draw(st.integers(min_games, 3)))]
    return document(*(doc for doc, _, _ in games), version=version), [(table, inputs) for _, table, inputs in games]


def exported(league: League) -> dict:
    return json.loads("".join(history_export.export_json(league.games.all(), league_name=league.name)))


def expected_game(doc: dict, table: rules.Table, inputs: list[rules.Hand]) -> dict:
    """What the export (version 2) must say of a game: the file's inputs with the rules engine's results."""
    result = rules.replay(table, inputs)
    rules_ = table.rules.as_dict()
    if table.teams:
        rules_["teams"] = [{"name": t.name, "players": list(t.players)} for t in table.teams]
    hands = []
    for scored in result.hands:
        entry: dict = {"dealer": scored.dealer}
        if scored.bids is not None:
            entry["bids"] = [list(pair) for pair in scored.bids]
        entry.update(pitcher=scored.pitcher, bid=scored.bid, points=dict(scored.points))
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
    """Any variant, custom points, seats, teams and house rules (version 2; and version 1's 4-point games): imported,
    the export says what the engine scored; that export imported again exports the same, and the standings agree."""
    doc, games = generated
    with rolled_back:
        league = League.objects.create(name="Generated", slug="generated")
        report = services.import_history(league=league, source=dumps(doc))
        text = "".join(history_export.export_json(league.games.all(), league_name=league.name, exported_at=EXPORTED_AT))
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
        assert history_export.standings_rows(copy_) == history_export.standings_rows(league)


def _game_input(doc: dict, game: dict) -> history_document.GameInput:
    """One game of the document as the reader takes it: its table and the engine's replay."""
    [found] = history_document.read_document({"format": "pitch-history", "version": doc["version"], "games": [game]})
    return found


def _hand_path(doc: dict) -> tuple[int, int] | None:
    for g, game in enumerate(doc["games"]):
        if game["hands"]:
            return g, len(game["hands"]) - 1
    return None


def _points(doc: dict, hand: dict) -> dict:
    """Where a hand keeps its points: the hand itself in version 1, its "points" object in version 2."""
    return hand if doc["version"] == 1 else hand["points"]


def _version(number: int):
    """A mutation that applies only to documents of this version (and to those with a hand)."""
    return lambda doc: doc["version"] == number and _hand_path(doc)


def _set_hand(field, value, applies=_hand_path):
    def change(doc):
        g, h = _hand_path(doc)
        doc["games"][g]["hands"][h][field] = value

    return change, applies


def _drop_hand_key(field, applies=_hand_path):
    def change(doc):
        g, h = _hand_path(doc)
        del doc["games"][g]["hands"][h][field]

    return change, applies


def _point_path(doc: dict, key: str) -> tuple[int, int] | None:
    """The last hand of the first game that plays point ``key``."""
    for g, game in enumerate(doc["games"]):
        if game["hands"] and key in _points(doc, game["hands"][-1]):
            return g, len(game["hands"]) - 1
    return None


def _set_point(key: str, value):
    def change(doc):
        g, h = _point_path(doc, key)
        _points(doc, doc["games"][g]["hands"][h])[key] = value

    return change, lambda doc: _point_path(doc, key)


def _drop_point(doc):
    g, h = _hand_path(doc)
    points = doc["games"][g]["hands"][h]["points"]
    del points[next(iter(points))]


def _extra_point(doc):
    """A point of the catalogue the game does not play, given in a hand."""
    g, h = _hand_path(doc)
    points = doc["games"][g]["hands"][h]["points"]
    points[next(key for key in rules.CATALOGUE if key not in points)] = None


def _plays_some_points(doc):
    path = _hand_path(doc)
    return doc["version"] == 2 and path and len(doc["games"][path[0]]["hands"][path[1]]["points"]) < len(rules.CATALOGUE)


def _after_the_end(doc):
    for game in doc["games"]:
        if game["hands"] and _game_input(doc, game).result.over:
            return game
    return None


def _append_after_the_end(doc):
    game = _after_the_end(doc)
    found = _game_input(doc, game)
    seat = game["seats"][0]
    points = dict.fromkeys(found.table.rules.points, seat)
    game["hands"].append({"pitcher": seat, "bid": found.table.rules.min_bid, **(points if doc["version"] == 1 else {"points": points})})


def _with_games(doc):
    return doc["games"] or None


def _first_game(field, value, applies=_with_games):
    def change(doc):
        doc["games"][0][field] = value

    return change, applies


def _first_rules(key, value, applies=_with_games):
    def change(doc):
        doc["games"][0].setdefault("rules", {})[key] = value

    return change, applies


def _seats_apart(doc):
    """Teams of neighbours, for a table of 4 or 6: partners must sit every T seats."""
    seats = doc["games"][0]["seats"]
    size = len(seats) // 2
    return [{"name": "Left", "players": seats[:size]}, {"name": "Right", "players": seats[size:]}]


def _seats(*counts):
    return lambda doc: (doc["games"] and len(doc["games"][0]["seats"]) in counts) or None


def _v2_seats(*counts):
    return lambda doc: doc["version"] == 2 and _seats(*counts)(doc)


MUTATIONS = {
    "unknown document key": (lambda doc: doc.update(extra=1), lambda doc: True),
    "unknown game key": (lambda doc: doc["games"][0].update(extra=1), _with_games),
    "unknown hand key": _set_hand("extra", 1),
    "format": (lambda doc: doc.update(format="pitch-history-2"), lambda doc: True),
    "version 3": (lambda doc: doc.update(version=3), lambda doc: True),
    "version 1.0": (lambda doc: doc.update(version=1.0), lambda doc: True),
    "version true": (lambda doc: doc.update(version=True), lambda doc: True),
    "version 1 hands called version 2": (lambda doc: doc.update(version=2), _version(1)),
    "version 2 hands called version 1": (lambda doc: doc.update(version=1), _version(2)),
    "bid 0": _set_hand("bid", 0),
    "bid 5 in the 4-point game": _set_hand("bid", 5, _version(1)),
    "bid above every total": _set_hand("bid", 24),
    "bid text": _set_hand("bid", "2"),
    "bid fraction": _set_hand("bid", 2.5),
    "pitcher unknown": _set_hand("pitcher", "Nobody"),
    "high unknown": _set_point("high", "Nobody"),
    "high null": _set_point("high", None),
    "low null": _set_point("low", None),
    "a point unknown": _set_point("ace", "Nobody"),
    "dealer unknown": _set_hand("dealer", "Nobody"),
    "no pitcher": _drop_hand_key("pitcher"),
    "no low": _drop_hand_key("low", _version(1)),
    "no game key": _drop_hand_key("game", _version(1)),
    "no points": _drop_hand_key("points", _version(2)),
    "points not an object": _set_hand("points", ["high"], _version(2)),
    "a point missing": (_drop_point, _version(2)),
    "a point the game does not play": (_extra_point, _plays_some_points),
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
    "target 0": _first_rules("target", 0),
    "target 100 in version 1": _first_rules("target", 100, lambda doc: doc["version"] == 1 and _with_games(doc)),
    "target 1000": _first_rules("target", 1000),
    "min_bid 3 in version 1": _first_rules("min_bid", 3, lambda doc: doc["version"] == 1 and _with_games(doc)),
    "min_bid above every total": _first_rules("min_bid", 24),
    "a version 2 key in version 1": _first_rules("negative", True, lambda doc: doc["version"] == 1 and _with_games(doc)),
    "variant unknown": _first_rules("variant", "12-point", lambda doc: doc["version"] == 2 and _with_games(doc)),
    "point unknown in custom": (
        lambda doc: doc["games"][0].setdefault("rules", {}).update(variant="custom", points=["high", "queen"]),
        lambda doc: doc["version"] == 2 and _with_games(doc),
    ),
    "teams seated as neighbours": (lambda doc: doc["games"][0].setdefault("rules", {}).update(teams=_seats_apart(doc)), _v2_seats(4, 6)),
    "teams of one and the rest": (
        lambda doc: (
            doc["games"][0]
            .setdefault("rules", {})
            .update(
                teams=[{"name": "One", "players": doc["games"][0]["seats"][:1]}, {"name": "Rest", "players": doc["games"][0]["seats"][1:]}]
            )
        ),
        _seats(3, 4, 5, 6, 7),
    ),
    "three teams of two in version 1": (
        lambda doc: (
            doc["games"][0]
            .setdefault("rules", {})
            .update(teams=[{"name": f"T{i}", "players": list(p)} for i, p in enumerate(rules.partners(doc["games"][0]["seats"], 3))])
        ),
        lambda doc: doc["version"] == 1 and _seats(6)(doc),
    ),
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
        with pytest.raises(history_document.HistoryError) as caught:
            services.import_history(league=league, source=dumps(doc))

        assert caught.value.problems
        assert all(str(problem) for problem in caught.value.problems)
        assert not (Game.objects.exists() or Player.objects.exists() or Hand.objects.exists() or HandScore.objects.exists())
