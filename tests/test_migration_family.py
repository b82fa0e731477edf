"""The Pitch-family migration on a copy of real leagues: every game stored before it keeps its scores, standings and
export.

The leagues are version-1 exports made before the variants came (tests/data): the demo league, and a league of
every house rule with partnership games, auctions and names that need escaping. Each is written into the database
as the app stored games then (the schema before the migration, through the historical models: hands with their
High, Low, Jack and Game columns, a score per side per hand, each finished game's seat figures counted by the
migrations that count them), migrated forward, and read back through today's code.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scores.history import export as history_export
from scores.leagues.models import League
from scores.standings.selectors.standings import standings
from scores.table.models import Game, Hand
from tests.history_docs import v2_game

pytestmark = pytest.mark.django_db(transaction=True)  # Migrations change the schema: not inside a test's transaction.

DATA = Path(__file__).parent / "data"
FILES = ["v1-demo-league.json", "v1-house-rules.json"]
BEFORE = [("scores", "0014_importjob_restarts_and_heartbeat")]
POINT_COLUMNS = {"high": "high", "low": "low", "jack": "jack", "game": "game_point"}  # Before: a foreign key to a side each.
OLD_FIGURES = {"high": "high", "low": "low", "jack": "jack", "game": "game_points"}


def migrate(target: list[tuple[str, str]]):
    """The database's schema moved to ``target``; the models of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes("scores")


def store_old(apps, slug: str, document: dict) -> None:
    """The document's games as the app stored them before the migration, row by row through the historical models."""
    League = apps.get_model("scores", "League")
    Player, Game, Side, Seat = (apps.get_model("scores", name) for name in ("Player", "Game", "Side", "Seat"))
    Hand, HandScore = apps.get_model("scores", "Hand"), apps.get_model("scores", "HandScore")
    league = League.objects.create(name=document["league"]["name"], slug=slug)
    players = {}
    for game in document["games"]:
        rules_ = game["rules"]
        teams = rules_.get("teams", [])
        stored = Game.objects.create(
            league=league,
            code=game["id"],
            played_on=game["played_on"],
            partnership=bool(teams),
            **{key: rules_[key] for key in ("target", "going_out", "min_bid", "steal", "smudge")},
        )
        side_names = [team["name"] for team in teams] or game["seats"]
        sides = {name: Side.objects.create(game=stored, position=i, name=name) for i, name in enumerate(side_names)}
        team_of = {player: team["name"] for team in teams for player in team["players"]}
        seats = {}
        for position, name in enumerate(game["seats"]):
            if name not in players:
                players[name] = Player.objects.create(league=league, name=name)
            seats[name] = Seat.objects.create(game=stored, player=players[name], position=position, side=sides[team_of.get(name, name)])
        winner = game["result"]["winner"]
        for number, hand in enumerate(game["hands"], start=1):
            row = Hand.objects.create(
                game=stored,
                number=number,
                dealer=seats[hand["dealer"]],
                pitcher=seats[hand["pitcher"]],
                bid=hand["bid"],
                auction=[[game["seats"].index(name), bid] for name, bid in hand["bids"]] if "bids" in hand else None,
                set=hand["set"],
                ends_game=winner is not None and number == len(game["hands"]),
                **{f"{column}_id": sides[hand[key]].pk if hand[key] else None for key, column in POINT_COLUMNS.items()},
            )
            for name, side in sides.items():
                HandScore.objects.create(hand=row, side=side, won=hand["won"][name], delta=hand["delta"][name], total=hand["totals"][name])
        if winner is not None:
            Game.objects.filter(pk=stored.pk).update(status="finished", winner=sides[winner])


def expected_figures(document: dict) -> dict[str, dict[str, int]]:
    """Each player's standings figures, counted from the file's finished games: what the league showed before."""
    figures: dict[str, dict[str, int]] = {}
    for game in document["games"]:
        if game["result"]["winner"] is None:
            continue
        teams = game["rules"].get("teams", [])
        team_of = {player: team["name"] for team in teams for player in team["players"]}
        for name in game["seats"]:
            side = team_of.get(name, name)
            mine = figures.setdefault(name, dict.fromkeys(("games", "wins", "points", "hands", "pitched", "set", *OLD_FIGURES), 0))
            mine["games"] += 1
            mine["wins"] += game["result"]["winner"] == side
            for hand in game["hands"]:
                mine["points"] += hand["delta"][side]
                mine["hands"] += 1
                mine["pitched"] += hand["pitcher"] == name
                mine["set"] += hand["pitcher"] == name and hand["set"]
                for key in OLD_FIGURES:
                    mine[key] += hand[key] == side
    return figures


def test_every_stored_game_keeps_its_scores_standings_and_export_through_the_migration():
    documents = {name: json.loads((DATA / name).read_text(encoding="utf-8")) for name in FILES}
    slugs = {name: f"league-{i}" for i, name in enumerate(FILES)}
    forward = latest()
    try:
        old = migrate(BEFORE)
        for name, document in documents.items():
            store_old(old, slugs[name], document)
        # The seat figures as the migrations that keep them counted them (every game, then zeros for games in progress).
        importlib.import_module("scores.migrations.0005_seat_figures").count_figures(old, connection.schema_editor())
        importlib.import_module("scores.migrations.0012_seat_figures_of_finished_games").zero_games_in_progress(old, None)
        OldSeat = old.get_model("scores", "Seat")
        before_figures = {
            (seat.game.league.slug, seat.game.code, seat.player.name): {key: getattr(seat, column) for key, column in OLD_FIGURES.items()}
            for seat in OldSeat.objects.select_related("game__league", "player")
        }
        assert any(any(figures.values()) for figures in before_figures.values())

        migrate(forward)
    finally:
        migrate(forward)

    for name, document in documents.items():
        league = League.objects.get(slug=slugs[name])
        exported = json.loads("".join(history_export.export_json(league.games.all(), league_name=league.name)))
        assert exported["games"] == [v2_game(game) for game in document["games"]]
        rows = {row.name: row for row in standings(league)}
        assert {
            player: {
                "games": row.games, "wins": row.wins, "points": row.points, "hands": row.hands, "pitched": row.pitched,
                "set": row.set, **{key: row.won[key] for key in OLD_FIGURES},
            }
            for player, row in rows.items()
        } == expected_figures(document)  # fmt: skip
        # Each seat keeps the counts it had, under their new names; the other kinds are 0.
        for game in Game.objects.filter(league=league):
            for seat in game.seats.select_related("player"):
                kept = before_figures[league.slug, game.code, seat.player.name]
                assert {key: getattr(seat, f"won_{key}") for key in OLD_FIGURES} == kept
                assert seat.won_off_jack == seat.won_ace == seat.won_three == seat.won_five == 0
    assert Hand.objects.count() == sum(len(game["hands"]) for document in documents.values() for game in document["games"])
    assert set(Game.objects.values_list("variant", "points", "negative")) == {("4-point", "high low jack game", True)}


def test_going_back_gives_every_hand_its_four_columns_again():
    document = json.loads((DATA / "v1-house-rules.json").read_text(encoding="utf-8"))
    forward = latest()
    try:
        old = migrate(BEFORE)
        store_old(old, "house", document)
        OldHand = old.get_model("scores", "Hand")
        columns = [f"{column}_id" for column in POINT_COLUMNS.values()]
        before = sorted(OldHand.objects.values_list("game__code", "number", *columns))
        migrate(forward)
        again = migrate(BEFORE)
        assert sorted(again.get_model("scores", "Hand").objects.values_list("game__code", "number", *columns)) == before
    finally:
        migrate(forward)
