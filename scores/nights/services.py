"""Writes to a card night: start it with its first round, start each next round, give a table its scorer.

A round is seated by ``scores.engine.planner.plan_round`` from the rounds stored so far, and each of its tables
becomes an ordinary game of the league (``start_table``), so scoring, the watch link and the standings
are the games' own.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..common.refusals import Refused
from ..engine import names, planner, rules
from ..leagues.models import League, Membership, Player, Role, roles_at_least
from ..leagues.services import players_named
from ..table.models import Game, Seat
from ..table.services import start_game
from .models import Bye, Night, Round


class RoundNotNext(Refused):
    """A round asked for out of turn (only a crafted post asks for one): rounds are seated one after another."""


@transaction.atomic
def start_night(
    *,
    league: League,
    name: str,
    played_on: datetime.date,
    seating: planner.Seating,
    rounds: int,
    rotation: bool = False,
    game_rules: rules.Rules,
    players: Sequence[Player],
    guests: Sequence[str] = (),
    by,
) -> Night:
    """A card night for the players present (league players, and new guests by name), with its first round seated.

    The night keeps its rules and how it seats (``seating``) for every round; its seed makes each round's
    seating reproducible from the rounds before it. ``rotation``: planned as a full rotation, whose rounds the
    form has set (the planner seats a partnership night by its whist design whatever its rounds).
    """
    night = Night.objects.create(
        league=league,
        name=name,
        played_on=played_on,
        partnership=seating.partnership,
        solo_size=seating.solo_size,
        leftover=seating.leftover,
        rounds=rounds,
        rotation=rotation,
        seed=random.randrange(2**31),
        created_by=by,
        **Night.fields_of(game_rules),
    )
    _seat_round(night, 1, [*players, *players_named(league, guests).values()])
    return night


@transaction.atomic
def start_round(*, night: Night, number: int, players: Sequence[Player], guests: Sequence[str] = (), unfinished: bool = False) -> Round:
    """Seat round ``number`` of the night for the players present (someone may have left or arrived).

    Refused if that round was started already (two owners pressing at once), if the night has had all its
    rounds, or, unless ``unfinished``, while a table of the round before is still playing; ``RoundNotNext`` if a
    round would be skipped.
    """
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)  # The night's row locked until the end.
    last = Round.objects.filter(night=night).aggregate(last=Max("number"))["last"] or 0
    if number <= last:
        raise Refused(_("Round %(number)s was started already: here is the night as it stands.") % {"number": number})
    if number > last + 1:
        raise RoundNotNext(_("Round %(number)s cannot start before round %(next)s.") % {"number": number, "next": last + 1})
    if number > night.rounds:
        raise Refused(_("The night has had all its %(rounds)s rounds.") % {"rounds": night.rounds})
    playing = list(
        Game.objects.filter(round__night=night, round__number=last).in_progress().order_by("table").values_list("table", flat=True)
    )
    if playing and not unfinished:
        raise Refused(
            ngettext(
                "Table %(tables)s of round %(number)s is still playing: start the next round when it is over, or start it anyway.",
                "Tables %(tables)s of round %(number)s are still playing: start the next round when they are over, or start it anyway.",
                len(playing),
            )
            % {"tables": ", ".join(map(str, playing)), "number": last}
        )
    return _seat_round(night, number, [*players, *players_named(night.league, guests).values()])


def _seat_round(night: Night, number: int, players: Sequence[Player]) -> Round:
    """Plan round ``number`` from the rounds stored, and store it: a game a table, a row a bye."""
    by_id = {player.pk: player for player in players}
    planned = planner.plan_round(list(by_id), _history(night), seating=night.seating, seed=night.seed)
    round_ = Round.objects.create(night=night, number=number)
    scorers = _scorers(night.league_id, list(by_id))
    for table_number, table in enumerate(planned.tables, start=1):
        scorer = next((scorers[player] for player in table.seats if player in scorers), None)
        start_table(night=night, round_=round_, number=table_number, table=table, players=by_id, scorer=scorer)
    Bye.objects.bulk_create(Bye(round=round_, player_id=player) for player in planned.byes)
    return round_


def _history(night: Night) -> list[list[planner.PlannedTable]]:
    """The tables of each round stored so far, as the planner takes them: one query. The stored games, not a plan
    made again, so a stored night stays as it was if the planner changes."""
    rounds: dict[int, dict[int, list[tuple[int, int]]]] = {}
    seats = Seat.objects.filter(game__round__night=night).order_by("game__round__number", "game__table", "position")
    for round_number, game, player, side in seats.values_list("game__round__number", "game_id", "player_id", "side_id"):
        rounds.setdefault(round_number, {}).setdefault(game, []).append((player, side))
    history = []
    for tables in rounds.values():
        played = []
        for seated in tables.values():
            teams: dict[int, list[int]] = {}
            for player, side in seated:
                teams.setdefault(side, []).append(player)
            partnership = any(len(team) > 1 for team in teams.values())
            played.append(planner.PlannedTable(tuple(p for p, _side in seated), tuple(map(tuple, teams.values())) if partnership else ()))
        history.append(played)
    return history


def _scorers(league_id: int, players: list[int]) -> dict[int, int]:
    """The members who may score (scorers and owners) among these players, by player: the user's id."""
    members = Membership.objects.filter(league_id=league_id, role__in=roles_at_least(Role.SCORER)).values("user_id")
    return dict(Player.objects.filter(pk__in=players, user__in=members).values_list("pk", "user_id"))


def start_table(
    *, night: Night, round_: Round, number: int, table: planner.PlannedTable, players: dict[int, Player], scorer: int | None
) -> Game:
    """One table of a round as an ordinary game of the league, by the night's rules, seat 1 dealing first.

    The one place a night starts a game (through ``start_game``, like any game)."""
    seats = [players[p].name for p in table.seats]
    short = names.short_forms(seats)
    teams = []
    for i, team in enumerate(table.teams):
        team_name = " & ".join(short[players[p].name] for p in team)
        if len(team_name) > names.MAX_LENGTH or names.key(team_name) in {names.key(s) for s in seats}:
            team_name = _("Table %(table)s, team %(team)s") % {"table": number, "team": "AB"[i]}
        teams.append((team_name, [players[p].name for p in team]))
    code = f"{night.played_on.isoformat()}-night{night.pk}-round{round_.number}-table{number}"
    game_rules = night.rules
    game = start_game(
        league=night.league,
        seats=seats,
        rules=game_rules,
        teams=teams,
        played_on=night.played_on,
        code=code,
    )
    game.round, game.table, game.scorer_id = round_, number, scorer
    game.save(update_fields=["round", "table", "scorer"])
    return game


@transaction.atomic
def set_table_scorer(*, game: Game, user_id: int | None) -> None:
    """Who records a night's table besides the owners (None: the owners alone): a scorer or owner of the league."""
    if (
        user_id is not None
        and not Membership.objects.filter(league_id=game.league_id, user_id=user_id, role__in=roles_at_least(Role.SCORER)).exists()
    ):
        raise Refused(_("Only a scorer or an owner of the league can score a table."))
    Game.objects.filter(pk=game.pk).update(scorer_id=user_id, version=F("version") + 1)
    Night.objects.filter(played_rounds__games=game).update(version=F("version") + 1)
    game.scorer_id = user_id
