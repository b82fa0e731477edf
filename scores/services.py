"""Writes that span models: start a game, record, edit and delete hands, import a history file.

Every write scores through ``scores.rules`` inside a transaction, with the game
row locked, and stores the engine's results: a new hand is scored from the totals
stored with the last one, an edit or a delete replays the whole game. Whatever
the rules refuse is refused here with nothing changed.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import uuid
from collections.abc import Callable, Sequence

from django.db import connection, transaction
from django.db.models import F, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from openskill.models import PlackettLuce

from . import history, rules, sql
from .models import Game, Hand, HandScore, Invite, League, Membership, Player, PlayerRating, Role, Seat, Side, ordinal


class HandAlreadyRecorded(Exception):
    """Another phone saved this hand number first."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(_("Hand %(number)s was already recorded.") % {"number": number})


@dataclasses.dataclass(frozen=True)
class GameState:
    """A stored game as the rules engine sees it, with the rows behind the names."""

    game: Game
    table: rules.Table
    seats: dict[str, Seat]
    sides: dict[str, Side]
    hands: list[Hand]
    inputs: list[rules.Hand]
    last_dealer: str | None  # Who dealt the last hand; None before the first.

    @property
    def next_dealer(self) -> str:
        """The left of the last hand's dealer; seat 1 deals the first hand."""
        return rules.next_dealer(self.table, self.last_dealer)

    def replay(self, inputs: Sequence[rules.Hand] | None = None) -> rules.Replay:
        return rules.replay(self.table, self.inputs if inputs is None else inputs)


# The rows the hottest reads build (``scores.sql``): here, and the access checks in ``views``.
GAME, LEAGUE, SEAT, PLAYER, SIDE, HAND, HANDSCORE = map(sql.Columns, (Game, League, Seat, Player, Side, Hand, HandScore))


def load_game(game: Game, *, hands: bool = True) -> GameState:
    """Read a game's seats, sides and hands into the engine's terms, in two queries.

    ``hands=False`` reads no hand, in one query: the table and who deals next are what a hand form and a
    scoreboard need, without reading a long game's every hand.
    """
    # Written as SQL (``scores.sql``): every write and every game page starts here, and the ORM took longer to
    # build these queries than the database took to answer them. Each seat comes with its player and side, and
    # with who dealt the game's last hand.
    seats, sides_by_pk, last_dealer_id = [], {}, None
    for row in sql.rows(
        f"SELECT {SEAT.of('seat')}, {PLAYER.of('player')}, {SIDE.of('side')},"
        " (SELECT dealer_id FROM scores_hand WHERE game_id = seat.game_id ORDER BY number DESC LIMIT 1) FROM scores_seat seat"
        " JOIN scores_player player ON player.id = seat.player_id JOIN scores_side side ON side.id = seat.side_id"
        " WHERE seat.game_id = %s ORDER BY seat.position",
        [game.pk],
    ):
        last_dealer_id = row[-1]
        seat = SEAT.make(row)
        seat.player = PLAYER.make(row, start=len(SEAT))
        seat.side = sides_by_pk.setdefault(seat.side_id, SIDE.make(row, start=len(SEAT) + len(PLAYER)))
        seats.append(seat)
    sides = sorted(sides_by_pk.values(), key=lambda side: side.position)
    side_names = {side.pk: side.name for side in sides}
    seat_names = {seat.pk: seat.player.name for seat in seats}
    teams = ()
    if game.partnership:
        teams = tuple(rules.Team(side.name, tuple(seat_names[s.pk] for s in seats if s.side_id == side.pk)) for side in sides)
    table = rules.Table(seats=tuple(seat_names[s.pk] for s in seats), target=game.target, teams=teams)
    query = f"SELECT {HAND.of('hand')} FROM scores_hand hand WHERE game_id = %s ORDER BY number"
    stored = [HAND.make(row) for row in sql.rows(query, [game.pk])] if hands else []
    seats_by_pk = {seat.pk: seat for seat in seats}
    for hand in stored:  # The rows a hand points at, from those just read: a page shows them without a query.
        hand.dealer, hand.pitcher = seats_by_pk[hand.dealer_id], seats_by_pk[hand.pitcher_id]
        hand.high, hand.low = sides_by_pk[hand.high_id], sides_by_pk[hand.low_id]
        hand.jack, hand.game_point = sides_by_pk.get(hand.jack_id), sides_by_pk.get(hand.game_point_id)
    names_by_position = {seat.position: seat_names[seat.pk] for seat in seats}

    def side(pk: int | None) -> str | None:
        return side_names[pk] if pk is not None else None

    inputs = [
        rules.Hand(
            pitcher=seat_names[hand.pitcher_id],
            bid=hand.bid,
            high=side(hand.high_id),
            low=side(hand.low_id),
            jack=side(hand.jack_id),
            game=side(hand.game_point_id),
            dealer=seat_names[hand.dealer_id],
            bids=tuple((names_by_position[p], b) for p, b in hand.auction) if hand.auction is not None else None,
        )
        for hand in stored
    ]
    return GameState(
        game=game,
        table=table,
        seats={seat_names[s.pk]: s for s in seats},
        sides={s.name: s for s in sides},
        hands=stored,
        inputs=inputs,
        last_dealer=seat_names.get(last_dealer_id),
    )


# Paths under /leagues/ that are pages, not leagues.
RESERVED_SLUGS = frozenset({"new"})


@transaction.atomic
def create_league(*, name: str, owner) -> League:
    """A new league named ``name`` with ``owner`` as its owner; the short name comes from the name, made unique."""
    name = name.strip()
    base = (slugify(name) or "league")[:50]
    taken = set(League.objects.filter(slug__startswith=base).values_list("slug", flat=True)) | RESERVED_SLUGS
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    league = League.objects.create(name=name, slug=slug)
    Membership.objects.create(league=league, user=owner, role=Role.OWNER)
    return league


@transaction.atomic
def delete_league(*, league: League) -> None:
    """Delete a league with everything in it.

    Games go first: their seats protect the players from being deleted while a game still seats them.
    """
    Game.objects.filter(league=league).delete()
    league.delete()


def accept_invite(*, invite: Invite, user) -> tuple[Membership, bool]:
    """Make ``user`` a member with the invite's role; an existing member keeps the role they have.

    Returns the membership and whether it is new.
    """
    if invite.revoked:
        raise ValueError("revoked invite")
    return Membership.objects.get_or_create(league=invite.league, user=user, defaults={"role": invite.role})


def _locked(game: Game) -> Game:
    """The game, its row locked until the transaction ends so writes to one game queue, and what a write changes
    (status, winner, version) read again under the lock. The rest of a game never changes once it has started."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""  # SQLite: BEGIN IMMEDIATE locks.
    [(game.status, game.winner_id, game.version)] = sql.rows(
        f"SELECT status, winner_id, version FROM scores_game WHERE id = %s{lock}", [game.pk]
    )
    return game


@transaction.atomic
def start_game(
    *,
    league: League,
    seats: Sequence[str],
    target: int = rules.DEFAULT_TARGET,
    teams: Sequence[tuple[str, Sequence[str]]] = (),
    first_dealer: str | None = None,
    played_on: datetime.date | None = None,
    code: str | None = None,
) -> Game:
    """Seat the players (creating new names in the league) and start a game.

    ``first_dealer`` turns the table so that player is seat 1, who deals first.
    """
    names = [name.strip() if isinstance(name, str) else name for name in seats]
    table = rules.Table(seats=tuple(names), target=target, teams=tuple(rules.Team(n.strip(), tuple(p)) for n, p in teams))
    names = list(table.seats)
    if first_dealer is not None:
        dealer = table.player(first_dealer)
        if dealer is None:
            raise rules.RulesError(rules.Problem(_("the first dealer must be a seated player"), field="dealer"))
        start = names.index(dealer)
        names = names[start:] + names[:start]
    played_on = played_on or timezone.localdate()
    code = code or _new_code(league, played_on)
    if Game.objects.filter(league=league, code=code).exists():
        raise rules.RulesError(rules.Problem(_("the league already has a game with id %(code)s") % {"code": code}, field="id"))
    game = Game.objects.create(league=league, code=code, played_on=played_on, target=target, partnership=table.partnership)
    players = players_named(league, names)
    if table.partnership:
        sides = {t.name: Side.objects.create(game=game, position=i, name=t.name) for i, t in enumerate(table.teams)}
        side_of = {table.player(p): sides[t.name] for t in table.teams for p in t.players}
    else:
        side_of = {n: Side.objects.create(game=game, position=i, name=players[n].name) for i, n in enumerate(names)}
    Seat.objects.bulk_create(Seat(game=game, player=players[name], position=i, side=side_of[name]) for i, name in enumerate(names))
    return game


@transaction.atomic
def rename_player(*, player: Player, name: str) -> None:
    """Give a player a new name, in the league and in the solo games they played.

    A solo game's side bears its player's name, and the rules engine finds each
    player's side by it: the two are renamed together, or the next hand of such
    a game could not be scored. Those games' version moves on, so the live
    score shows the new name.
    """
    sides = Side.objects.filter(game__partnership=False, seats__player=player)
    Game.objects.filter(sides__in=sides).update(version=F("version") + 1)
    sides.update(name=name)
    Player.objects.filter(pk=player.pk).update(name=name)
    player.name = name


def players_named(league: League, names: Sequence[str]) -> dict[str, Player]:
    """The league's players by these names, ignoring case; unknown names become new players."""
    existing = {p.name.casefold(): p for p in Player.objects.filter(league=league)}
    found = {}
    for name in names:
        player = existing.get(name.casefold())
        if player is None:
            player = existing[name.casefold()] = Player.objects.create(league=league, name=name)
        found[name] = player
    return found


def _new_code(league: League, played_on: datetime.date) -> str:
    prefix = played_on.isoformat()
    taken = set(Game.objects.filter(league=league, code__startswith=prefix).values_list("code", flat=True))
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def _hand_fields(state: GameState, scored: rules.ScoredHand) -> dict:
    positions = {name: seat.position for name, seat in state.seats.items()}

    def side(name: str | None) -> Side | None:
        return state.sides[name] if name is not None else None

    return {
        "dealer": state.seats[scored.dealer],
        "pitcher": state.seats[scored.pitcher],
        "bid": scored.bid,
        "auction": [[positions[n], b] for n, b in scored.bids] if scored.bids is not None else None,
        "high": side(scored.high),
        "low": side(scored.low),
        "jack": side(scored.jack),
        "game_point": side(scored.game),
        "set": scored.set,
        "ends_game": scored.winner is not None,
    }


def _scores(state: GameState, hand: Hand, scored: rules.ScoredHand) -> list[HandScore]:
    return [
        HandScore(hand_id=hand.pk, side_id=state.sides[name].pk, won=scored.won[name], delta=scored.delta[name], total=scored.totals[name])
        for name in state.table.sides
    ]


def _figures(state: GameState, hands: Sequence[rules.ScoredHand]) -> dict[str, tuple[int, ...]]:
    """Each seat's figures (``Seat.FIGURES``, in that order) over these hands, from the engine's results."""
    side_names = {side.pk: name for name, side in state.sides.items()}  # The engine's names for the sides.
    figures = {}
    for name, seat in state.seats.items():
        side = side_names[seat.side_id]
        pitched = [scored for scored in hands if scored.pitcher == name]
        figures[name] = (
            sum(scored.delta[side] for scored in hands),
            len(hands),
            len(pitched),
            sum(scored.set for scored in pitched),
            sum(scored.high == side for scored in hands),
            sum(scored.low == side for scored in hands),
            sum(scored.jack == side for scored in hands),
            sum(scored.game == side for scored in hands),
        )
    return figures


def _count_figures(state: GameState, result: rules.Replay) -> list[Seat]:
    """Set each seat's figures from the whole game's results; the seats, to be saved."""
    for name, values in _figures(state, result.hands).items():
        for field, value in zip(Seat.FIGURES, values, strict=True):
            setattr(state.seats[name], field, value)
    return list(state.seats.values())


def _set_result(state: GameState, winner: str | None) -> None:
    """The game's winner and status as the engine ends it (not saved)."""
    state.game.winner = state.sides[winner] if winner else None
    state.game.status = Game.Status.FINISHED if winner else Game.Status.IN_PROGRESS


def _finish(state: GameState, winner: str | None) -> None:
    game = state.game
    was_finished = game.is_finished
    _set_result(state, winner)
    game.version += 1  # The row is locked (_locked) and was read under the lock: no other write can slip in between.
    sql.update(game, ["winner", "status", "version", "updated_at"])
    if was_finished or game.is_finished:  # Only finished games are rated: a hand of a game in progress changes no rating.
        update_ratings(league=League(pk=game.league_id), from_game=game)


def _save_figures(state: GameState, hands: Sequence[rules.ScoredHand], *, added: bool) -> None:
    """Store the seats' figures over these hands: the whole game's (``added=False``), or one more hand's,
    added to what is stored. One UPDATE statement run per seat, as bulk_update's CASE expressions cost
    more to build than a game's whole replay."""

    def statement() -> str:
        columns = [connection.ops.quote_name(Seat._meta.get_field(name).column) for name in Seat.FIGURES]
        assignments = ", ".join(f"{column} = {column} + %s" if added else f"{column} = %s" for column in columns)
        return f"UPDATE {connection.ops.quote_name(Seat._meta.db_table)} SET {assignments} WHERE id = %s"

    with connection.cursor() as cursor:
        cursor.executemany(
            sql.cached(("figures", added), statement),
            [[*values, state.seats[name].pk] for name, values in _figures(state, hands).items()],
        )


RATING_MODEL = PlackettLuce()


@transaction.atomic
def update_ratings(*, league: League, from_game: Game | None = None) -> None:
    """Rate the league's finished games again, in the order played, from ``from_game`` (itself included) onward.

    OpenSkill's Plackett-Luce model, one team per side: the winner ranks first,
    the other sides by their final totals (equal totals share a rank). Earlier
    games keep their stored ratings; ``from_game=None`` rates every game.

    The same walk keeps each player's streak (on every rating row, and the
    current one on the player) and latest rating on the player, for the
    standings; a player changes only if their figures do.
    """
    games = Game.objects.filter(league=league)
    if from_game is not None:
        games = games.filter(Q(played_on__gt=from_game.played_on) | Q(played_on=from_game.played_on, pk__gte=from_game.pk))
    PlayerRating.objects.filter(game__in=games).delete()
    # Where each player stands before the games rated again: their latest rating row left, if any.
    latest = PlayerRating.objects.filter(player=OuterRef("pk")).order_by("-game__played_on", "-game_id").values("pk")[:1]
    stored = list(Player.objects.filter(league=league).annotate(latest=Subquery(latest)).values_list("pk", "rating", "streak", "latest"))
    current = {pk: RATING_MODEL.rating() for pk, *_figures in stored}
    streaks = dict.fromkeys(current, 0)
    rated: set[int] = set()
    for player_id, mu, sigma, streak in PlayerRating.objects.filter(
        pk__in=[row_id for *_figures, row_id in stored if row_id is not None]
    ).values_list("player_id", "mu_after", "sigma_after", "streak_after"):
        current[player_id] = RATING_MODEL.rating(mu=mu, sigma=sigma)
        streaks[player_id] = streak
        rated.add(player_id)
    finished = list(games.finished().order_by("played_on", "pk").values_list("pk", "winner_id"))
    ids = [pk for pk, _winner in finished]
    sides: dict[int, dict[int, list[int]]] = {pk: {} for pk in ids}  # game -> side -> players
    for game_id, side_id, player_id in (
        Seat.objects.filter(game__in=ids).order_by("side__position", "position").values_list("game_id", "side_id", "player_id")
    ):
        sides[game_id].setdefault(side_id, []).append(player_id)
    totals = {
        (game_id, side_id): total
        for game_id, side_id, total in HandScore.objects.filter(hand__game__in=ids, hand__ends_game=True).values_list(
            "hand__game_id", "side_id", "total"
        )
    }
    rows = []
    for game_id, winner_id in finished:
        teams = list(sides[game_id].items())
        places = rules.finishing_ranks({side_id: totals[game_id, side_id] for side_id, _players in teams}, winner_id)
        ranks = [places[side_id] for side_id, _players in teams]
        before = [[current[p] for p in players] for _side, players in teams]
        after = RATING_MODEL.rate([[RATING_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before], ranks=ranks)
        for (side_id, players), old_team, new_team in zip(teams, before, after, strict=True):
            for player_id, old, new in zip(players, old_team, new_team, strict=True):
                streak = streaks[player_id]
                streaks[player_id] = max(streak, 0) + 1 if side_id == winner_id else min(streak, 0) - 1
                rating = PlayerRating(game_id=game_id, player_id=player_id, mu_before=old.mu, sigma_before=old.sigma)
                rating.mu_after, rating.sigma_after, rating.streak_after = new.mu, new.sigma, streaks[player_id]
                rows.append(rating)
                current[player_id] = new
                rated.add(player_id)
    PlayerRating.objects.bulk_create(rows)
    changed = []
    for pk, *was, _latest in stored:
        now = [ordinal(current[pk].mu, current[pk].sigma) if pk in rated else None, streaks[pk]]
        if now != was:
            changed.append(Player(pk=pk, rating=now[0], streak=now[1]))
    if changed:
        Player.objects.bulk_update(changed, ["rating", "streak"])


@transaction.atomic
def record_hand(
    *,
    game: Game,
    hand: rules.Hand,
    number: int | None = None,
    idempotency_key: uuid.UUID | None = None,
    state: GameState | None = None,
) -> Hand:
    """Score and store the next hand of a game.

    ``number`` is the hand the phone meant to record: if another phone saved it
    first, HandAlreadyRecorded. A repeated ``idempotency_key`` returns the hand
    already stored under it and changes nothing.

    The rules engine scores the new hand from the totals stored with the last
    one (``rules.score_next``): a save does not read or replay the whole game.
    ``state`` is the game as ``load_game`` read it, if the caller has it: only
    its seats and sides are used, which never change once a game has started.
    The hand returned has its scores in ``side_scores``, in the order of the sides.
    """
    state = dataclasses.replace(state or load_game(game, hands=False), game=game)
    side_names = {side.pk: name for name, side in state.sides.items()}
    seat_names = {seat.pk: name for name, seat in state.seats.items()}
    # The game row locked first, and only then the last hand: in PostgreSQL a statement that waited for the lock
    # still sees the other rows as they were when it began, before the write it waited for.
    _locked(game)
    last = sql.rows(  # The last hand's number, dealer and totals: a row per side.
        "SELECT hand.number, hand.dealer_id, score.side_id, score.total FROM scores_hand hand"
        " JOIN scores_handscore score ON score.hand_id = hand.id WHERE hand.game_id = %s ORDER BY hand.number DESC LIMIT %s",
        [game.pk, len(side_names)],
    )
    totals = dict.fromkeys(state.table.sides, 0) | {side_names[side_id]: total for _number, _dealer, side_id, total in last}
    last_number, last_dealer = (last[0][0], seat_names[last[0][1]]) if last else (0, None)
    next_number = last_number + 1
    if number is not None and number < next_number:
        return _stored_under(game, idempotency_key, number)
    if number is not None and number > next_number:
        raise rules.RulesError(
            rules.Problem(_("the next hand is hand %(next)s, not %(number)s") % {"next": next_number, "number": number}, hand=number)
        )
    winner = side_names[game.winner_id] if game.winner_id else None
    scored = rules.score_next(state.table, hand, number=next_number, last_dealer=last_dealer, before=totals, winner=winner)
    stored = Hand(game=game, number=next_number, idempotency_key=idempotency_key, **_hand_fields(state, scored))
    if not sql.insert_new(stored):  # A key already used, or (where the lock is not a lock) the number.
        return _stored_under(game, idempotency_key, next_number)
    stored.side_scores = _scores(state, stored, scored)
    sql.insert(stored.side_scores)
    _save_figures(state, [scored], added=True)
    _finish(state, scored.winner)
    return stored


def _stored_under(game: Game, idempotency_key: uuid.UUID | None, number: int) -> Hand:
    """The hand already stored under this key (a double tap or a retry); if none, hand ``number`` was another phone's."""
    stored = Hand.objects.filter(game=game, idempotency_key=idempotency_key).first() if idempotency_key else None
    if stored is None:
        raise HandAlreadyRecorded(number)
    return with_side_scores([stored])[0]


def with_side_scores(hands: list[Hand]) -> list[Hand]:
    """The hands, each with its scores as ``side_scores`` in the order of the sides (as ``record_hand`` leaves
    them), read in one query."""
    by_hand: dict[int, list[HandScore]] = {hand.pk: [] for hand in hands}
    if by_hand:
        ids = list(by_hand)
        for row in sql.rows(
            f"SELECT {HANDSCORE.of('score')} FROM scores_handscore score JOIN scores_side side ON side.id = score.side_id"
            f" WHERE score.hand_id IN ({', '.join(['%s'] * len(ids))}) ORDER BY score.hand_id, side.position",
            ids,
        ):
            score = HANDSCORE.make(row)
            by_hand[score.hand_id].append(score)
    for hand in hands:
        hand.side_scores = by_hand[hand.pk]
    return hands


def _rewrite(state: GameState, inputs: list[rules.Hand], hands: list[Hand]) -> None:
    """Replay the whole game with these inputs and store every hand's results again."""
    result = state.replay(inputs)
    HandScore.objects.filter(hand__game=state.game).delete()
    scores = []
    for hand, scored in zip(hands, result.hands, strict=True):
        for name, value in _hand_fields(state, scored).items():
            setattr(hand, name, value)
        scores.extend(_scores(state, hand, scored))
    Hand.objects.bulk_update(hands, ["dealer", "pitcher", "bid", "auction", "high", "low", "jack", "game_point", "set", "ends_game"])
    HandScore.objects.bulk_create(scores)
    _save_figures(state, result.hands, added=False)
    _finish(state, result.winner)


@transaction.atomic
def edit_hand(*, game: Game, number: int, hand: rules.Hand) -> Hand:
    """Change an earlier hand; every later total is recomputed.

    Refused, with nothing changed, if the game would then end before hands that
    come after it.
    """
    state = load_game(_locked(game))
    index = _index(state, number)
    if hand.dealer is None:
        hand = dataclasses.replace(hand, dealer=state.inputs[index].dealer)
    inputs = list(state.inputs)
    inputs[index] = hand
    _rewrite(state, inputs, state.hands)
    return state.hands[index]


@transaction.atomic
def delete_hand(*, game: Game, number: int) -> None:
    """Delete a hand; later hands move up one and every total is recomputed."""
    state = load_game(_locked(game))
    index = _index(state, number)
    inputs = state.inputs[:index] + state.inputs[index + 1 :]
    state.replay(inputs)  # Refuse before changing anything.
    state.hands[index].delete()
    later = state.hands[index + 1 :]
    for hand in later:  # In order, so each new number is free when it is taken.
        hand.number -= 1
        hand.save(update_fields=["number"])
    _rewrite(state, inputs, state.hands[:index] + later)


def _index(state: GameState, number: int) -> int:
    if not 1 <= number <= len(state.hands):
        raise rules.RulesError(rules.Problem(_("there is no hand %(number)s in this game") % {"number": number}))
    return number - 1


@dataclasses.dataclass(frozen=True)
class ImportReport:
    """What an import did: the game ids it stored, and those the league already had."""

    imported: tuple[str, ...]
    skipped: tuple[str, ...]


IMPORT_BATCH = 500  # Games per round of bulk inserts: a few queries per round, memory bounded by the round.


def import_history(
    *, league: League, source: bytes | str, max_games: int | None = None, on_storing: Callable[[int], None] | None = None
) -> ImportReport:
    """Import a history file (``shared/spec/history-format.md``) into a league, all or nothing.

    Every problem in the file is raised together (``history.HistoryError``) and
    nothing is stored; so is a file of more than ``max_games`` games. Games whose
    id the league already has are skipped, so the same file can be imported
    twice. Scores come from the rules engine, which scores each game once, while
    the file is checked; the file's derived fields are ignored. Games are stored
    in bulk, a batch of games at a time, and the league's ratings are updated
    once, at the end. ``on_storing`` is told how many games the file holds once
    it is checked, before anything is written.
    """
    # Checked before the transaction starts: on SQLite a transaction holds the one write lock (IMMEDIATE), and
    # other leagues' hands need not wait while a file is parsed and scored.
    games = history.read(source, max_games=max_games)
    if on_storing is not None:
        on_storing(len(games))
    with transaction.atomic():
        existing = set(Game.objects.filter(league=league).values_list("code", flat=True))
        new = [found for found in games if found.id not in existing]
        skipped = tuple(found.id for found in games if found.id in existing)
        players = players_named(league, list(dict.fromkeys(name for found in new for name in found.table.seats)))
        stored: list[Game] = []
        for batch in itertools.batched(new, IMPORT_BATCH):
            stored.extend(_store_new_games(league, batch, players))
        finished = [game for game in stored if game.is_finished]
        if finished:  # Once for the whole file, from its earliest game on, as record_hand would have left them.
            update_ratings(league=league, from_game=min(finished, key=lambda game: (game.played_on, game.pk)))
    return ImportReport(imported=tuple(found.id for found in new), skipped=skipped)


IMPORT_HAND_FIELDS = (
    "game",
    "number",
    "dealer",
    "pitcher",
    "bid",
    "auction",
    "high",
    "low",
    "jack",
    "game_point",
    "set",
    "ends_game",
    "created_at",
)


def _pk(row: Seat | Side | None) -> int | None:
    return row.pk if row is not None else None


def _store_new_games(league: League, batch: Sequence[history.GameInput], players: dict[str, Player]) -> list[Game]:
    """start_game and record_hand for a batch of new games, in a few bulk inserts however many games and hands.

    The engine's results come from the check (``GameInput.result``), keyed by the names in the file; the rows
    are stored under the names start_game stores (a known player keeps the league's spelling).
    """
    today = timezone.localdate()
    games = Game.objects.bulk_create(
        Game(
            league=league,
            code=found.id,
            played_on=found.played_on or today,
            target=found.table.target,
            partnership=found.table.partnership,
        )
        for found in batch
    )
    sides = Side.objects.bulk_create(
        Side(game_id=game.pk, position=i, name=name if found.table.partnership else players[name].name)
        for game, found in zip(games, batch, strict=True)
        for i, name in enumerate(found.table.sides)
    )
    seats, states = [], []
    for game, found, first in zip(games, batch, itertools.accumulate((len(f.table.sides) for f in batch), initial=0), strict=False):
        table = found.table
        game_sides = dict(zip(table.sides, sides[first : first + len(table.sides)], strict=True))
        # A team may name its players otherwise than the seats do ("ann" for "Ann"): the seat's spelling is the key.
        side_of = {table.player(p): t.name for t in table.teams for p in t.players} if table.partnership else {n: n for n in table.seats}
        state = GameState(
            game=game,
            table=table,
            seats={
                name: Seat(game_id=game.pk, player_id=players[name].pk, position=i, side_id=game_sides[side_of[name]].pk)
                for i, name in enumerate(table.seats)
            },
            sides=game_sides,
            hands=[],
            inputs=[],
            last_dealer=None,
        )
        seats.extend(_count_figures(state, found.result))  # Counted before the seats are inserted: no update afterwards.
        states.append(state)
    Seat.objects.bulk_create(seats, batch_size=1000)
    # Hands and their scores are most of the rows: inserted as plain rows (``RowsQuerySet.insert_rows``).
    created_at = connection.ops.adapt_datetimefield_value(timezone.now())
    auction = Hand._meta.get_field("auction")
    hands = []
    for state, found in zip(states, batch, strict=True):
        for scored in found.result.hands:
            fields = _hand_fields(state, scored)
            hands.append(
                [
                    state.game.pk,
                    scored.number,
                    *(_pk(fields[name]) for name in ("dealer", "pitcher")),
                    scored.bid,
                    auction.get_db_prep_save(fields["auction"], connection) if fields["auction"] is not None else None,
                    *(_pk(fields[name]) for name in ("high", "low", "jack", "game_point")),
                    scored.set,
                    fields["ends_game"],
                    created_at,
                ]
            )
    Hand.objects.insert_rows(IMPORT_HAND_FIELDS, hands)
    hand_ids = {(game, number): pk for game, number, pk in Hand.objects.filter(game__in=games).values_list("game_id", "number", "pk")}
    scores = []
    for state, found in zip(states, batch, strict=True):
        for scored in found.result.hands:
            hand_id = hand_ids[state.game.pk, scored.number]
            scores.extend(
                (hand_id, side.pk, scored.won[name], scored.delta[name], scored.totals[name]) for name, side in state.sides.items()
            )
        _set_result(state, found.result.winner)
        state.game.version = 1
    HandScore.objects.insert_rows(("hand", "side", "won", "delta", "total"), scores)
    # The winners, a statement per winning side's position rather than bulk_update's CASE over every game (a
    # tenth of an import's time): the side at that position in each of these games is the one the engine named.
    by_position: dict[int | None, list[int]] = {}
    for game in games:
        by_position.setdefault(game.winner.position if game.winner else None, []).append(game.pk)
    for position, ids in by_position.items():
        if position is None:
            Game.objects.filter(pk__in=ids).update(version=1)
        else:
            winner = Subquery(Side.objects.filter(game=OuterRef("pk"), position=position).values("pk"))
            Game.objects.filter(pk__in=ids).update(winner=winner, status=Game.Status.FINISHED, version=1)
    return games
