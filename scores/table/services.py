"""Writes to a game: start it, record, edit, undo and delete hands, its watch link.

Every write scores through ``scores.engine.rules`` inside a transaction, with the game
row locked, and stores the engine's results: a new hand is scored from the totals
stored with the last one, an edit or a delete replays the whole game. Whatever
the rules refuse is refused here with nothing changed, and so is a write to a game
another request deleted meanwhile (``GameDeleted``). A game is read into the
engine's terms by ``scores.table.selectors.load_game``.
"""

from __future__ import annotations

import dataclasses
import datetime
import uuid
from collections.abc import Mapping, Sequence

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from ..common.refusals import Gone, Refused
from ..engine import rules
from ..engine.names import clean as clean_name
from ..engine.rules import Problem, Rules, RulesError, Table, Team
from ..leagues.models import League
from ..leagues.services import players_named
from ..standings.services.ratings import update_ratings
from ..standings.services.totals import Counted, count_game
from .models import Game, Hand, HandScore, Seat, Side
from .selectors import GameState, load_game, with_side_scores


class HandAlreadyRecorded(Exception):
    """Another phone saved this hand number first."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(_("Hand %(number)s was already recorded.") % {"number": number})


class GameDeleted(Gone):
    """Another request deleted the game this write was for: found under the game's lock, or by a read before it."""

    def __init__(self) -> None:
        super().__init__(_("The game was deleted meanwhile, so nothing was changed."))


class KeyUsedForAnotherHand(Exception):
    """The hand came with the key of hand ``number``, which is another hand (other taps, or another number)."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(
            _(
                "Hand %(number)s was already saved from the same form, so this one was not stored: "
                "edit hand %(number)s to change it, or save this one as the next hand."
            )
            % {"number": number}
        )


def set_watch_link(*, game: Game, on: bool) -> None:
    """Turn the game's read-only watch link off, or on with a new token: the old link then stops working."""
    game.share_token = League.new_token() if on else None
    Game.objects.filter(pk=game.pk).update(share_token=game.share_token)


def _locked(game: Game) -> Game:
    """The game, its row locked until the transaction ends so writes to one game queue, and what a write changes
    (status, winner, version) read again under the lock. The rest of a game never changes once it has started.

    Gone if another request deleted the game while this one waited for the lock (or before)."""
    try:
        game.status, game.winner_id, game.version = Game.objects.locked_state(game.pk)
    except Game.DoesNotExist:
        raise GameDeleted from None
    return game


@transaction.atomic
def start_game(
    *,
    league: League,
    seats: Sequence[str],
    rules: Rules,
    teams: Sequence[tuple[str, Sequence[str]]] = (),
    first_dealer: str | None = None,
    played_on: datetime.date | None = None,
    code: str | None = None,
) -> Game:
    """Seat the players (creating new names in the league) and start a game played by ``rules``.

    ``teams`` are (name, players) for partnership play: 2 teams of 2 at 4 seats, 3 teams of 2 or 2 teams of 3 at
    6, partners sitting every as many seats as there are teams (``rules.partners``). ``first_dealer`` turns the
    table so that player is seat 1, who deals first (partners stay as far apart). The game keeps its rules:
    nothing changes them once it has started.
    """
    names = [clean_name(name) if isinstance(name, str) else name for name in seats]
    table = Table(seats=tuple(names), rules=rules, teams=tuple(Team(clean_name(n), tuple(p)) for n, p in teams))
    names = list(table.seats)
    if first_dealer is not None:
        dealer = table.player(first_dealer)
        if dealer is None:
            raise RulesError(Problem(_("the first dealer must be a seated player"), field="dealer"))
        start = names.index(dealer)
        names = names[start:] + names[:start]
    played_on = played_on or timezone.localdate()
    code = code or _new_code(league, played_on)
    if Game.objects.filter(league=league, code=code).exists():
        raise RulesError(Problem(_("the league already has a game with id %(code)s") % {"code": code}, field="id"))
    game = Game.objects.create(league=league, code=code, played_on=played_on, **Game.fields_of(rules), partnership=table.partnership)
    players = players_named(league, names)
    if table.partnership:
        sides = {t.name: Side.objects.create(game=game, position=i, name=t.name) for i, t in enumerate(table.teams)}
        side_of = {table.player(p): sides[t.name] for t in table.teams for p in t.players}
    else:
        side_of = {n: Side.objects.create(game=game, position=i, name=players[n].name) for i, n in enumerate(names)}
    Seat.objects.bulk_create(Seat(game=game, player=players[name], position=i, side=side_of[name]) for i, name in enumerate(names))
    return game


def _new_code(league: League, played_on: datetime.date) -> str:
    prefix = played_on.isoformat()
    taken = set(Game.objects.filter(league=league, code__startswith=prefix).values_list("code", flat=True))
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def hand_fields(state: GameState, scored: rules.ScoredHand) -> dict:
    """The ``Hand`` row's fields for a hand the engine scored: its seats, its auction by seat position and who won
    each point by side position (``Hand.points``)."""
    positions = {name: seat.position for name, seat in state.seats.items()}
    return {
        "dealer": state.seats[scored.dealer],
        "pitcher": state.seats[scored.pitcher],
        "bid": scored.bid,
        "auction": [[positions[n], b] for n, b in scored.bids] if scored.bids is not None else None,
        "points": {key: None if side is None else state.sides[side].position for key, side in scored.points.items()},
        "set": scored.set,
        "ends_game": scored.winner is not None,
    }


def score_rows(state: GameState, hand: Hand, scored: rules.ScoredHand) -> list[HandScore]:
    return [
        HandScore(hand_id=hand.pk, side_id=state.sides[name].pk, won=scored.won[name], delta=scored.delta[name], total=scored.totals[name])
        for name in state.table.sides
    ]


def seat_figures(table: rules.Table, hands: Sequence[rules.ScoredHand]) -> dict[str, tuple[int, ...]]:
    """Each seat's figures (``Seat.FIGURES``, in that order) over these hands, from the engine's results, by
    the seat's name: its side's points, the hands played, the hands it pitched and was set in, the hands
    its side won each point of the catalogue in, and no game or points from paper. One pass over the hands (an import
    counts every hand of a file).

    ``hands`` are a whole game's from its first hand (or none): a side's points are its total after the last."""
    points = hands[-1].totals if hands else dict.fromkeys(table.sides, 0)
    won = {side: dict.fromkeys(rules.CATALOGUE, 0) for side in table.sides}
    pitched, sets = dict.fromkeys(table.seats, 0), dict.fromkeys(table.seats, 0)
    for scored in hands:
        for key, winner in scored.points.items():
            if winner is not None:
                won[winner][key] += 1
        pitched[scored.pitcher] += 1
        sets[scored.pitcher] += scored.set
    figures = {}
    for name in table.seats:
        seat_side = table.side(name)
        assert seat_side is not None
        figures[name] = (points[seat_side], len(hands), pitched[name], sets[name], *won[seat_side].values(), 0, 0)
    return figures


def paper_figures(table: rules.Table, totals: Mapping[str, int]) -> dict[str, tuple[int, ...]]:
    """Each seat's figures (``Seat.FIGURES``) in a game recorded from paper, by the seat's name: its side's final
    score (as its points and its paper points), one game from paper, and nothing counted from hands, which it has none of."""
    figures = {}
    for name in table.seats:
        side = table.side(name)
        assert side is not None
        figures[name] = (totals[side], *(0 for _figure in Seat.FIGURES[1:-2]), 1, totals[side])
    return figures


def set_result(state: GameState, winner: str | None) -> None:
    """The game's winner and status as the engine ends it (not saved)."""
    state.game.winner = state.sides[winner] if winner else None
    state.game.status = Game.Status.FINISHED if winner else Game.Status.IN_PROGRESS


def _finish(state: GameState, winner: str | None) -> None:
    game = state.game
    was_finished = game.is_finished
    set_result(state, winner)
    game.version += 1  # The row is locked (_locked) and was read under the lock: no other write can slip in between.
    game.save(update_fields=["winner", "status", "version", "updated_at"])
    if was_finished or game.is_finished:  # Only finished games are rated: a hand of a game in progress changes no rating.
        update_ratings(league=League(pk=game.league_id), from_game=game)


def _save_figures(state: GameState, result: rules.Replay) -> None:
    """Store the seats' figures in a finished game (``seat_figures``); zeros while it is in progress.

    The standings count only finished games, so a seat's figures are counted once, as its game ends (or an
    edit or a delete ends it, or reopens it: zeros again), not hand by hand: a hand saved while the game goes
    on writes no seat. The season's totals follow (``count_game``)."""
    hands = result.hands if result.winner is not None else ()  # The standings count only finished games.
    before = _counted(state.game) if state.game.is_finished else None  # As the seats counted until now.
    _store_figures(state, seat_figures(state.table, hands), winner=result.winner, before=before)


def _store_figures(
    state: GameState, figures: Mapping[str, tuple[int, ...]], *, winner: str | None, before: dict[int, Counted] | None
) -> None:
    """Write the seats' figures (by seat name, ``Seat.FIGURES``), and count them in the season's totals in place of
    ``before`` when the game has a winner."""
    seats = [Seat(pk=state.seats[name].pk, **dict(zip(Seat.FIGURES, values, strict=True))) for name, values in figures.items()]
    Seat.objects.bulk_update(seats, Seat.FIGURES)
    after = None
    if winner is not None:
        won = state.sides[winner].pk
        after = {state.seats[name].player_id: (state.seats[name].side_id == won, values) for name, values in figures.items()}
    count_game(game=state.game, before=before, after=after)


def _counted(game: Game) -> dict[int, Counted]:
    """The seats of a finished game as its season's totals count them now: by player, whether they won, their figures."""
    seats = Seat.objects.filter(game=game).values_list("player_id", "side_id", *Seat.FIGURES)
    return {player: (side == game.winner_id, tuple(values)) for player, side, *values in seats}


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
    first, HandAlreadyRecorded. A repeated ``idempotency_key`` (a double tap, a
    retry: the same hand, the same number) returns the hand already stored under
    it and changes nothing; with another hand or number, KeyUsedForAnotherHand.

    The rules engine scores the new hand from the totals stored with the last
    one (``rules.score_next``): a save does not read or replay the whole game.
    ``state`` is the game as ``load_game`` read it, if the caller has it: only
    its seats and sides are used, which never change once a game has started.
    The hand returned has its scores in ``side_scores``, in the order of the sides;
    ``game``'s status and winner are brought up to date (also when the hand is
    refused), and its version when the hand is stored. Only the hand that ends the game reads it whole: to count
    its seats' figures (``_save_figures``) and rate it.
    """
    try:
        return _record_hand(game=game, hand=hand, number=number, idempotency_key=idempotency_key, state=state)
    except (IntegrityError, _Recorded):
        # Hand ``number`` was recorded already; or a key sent again with a new number reached the key's unique
        # constraint (the game's lock lets no other write in, and a retry carries its hand's number). Nothing was
        # stored: the transaction rolled back, version and all.
        return _stored_under(game, idempotency_key, number, hand)


class _Recorded(Exception):
    """The hand number posted was recorded already: answered by the hand stored under its key, if any."""


@transaction.atomic
def _record_hand(*, game: Game, hand: rules.Hand, number: int | None, idempotency_key: uuid.UUID | None, state: GameState | None) -> Hand:
    try:
        state = dataclasses.replace(state or load_game(game, hands=False), game=game)
    except Game.DoesNotExist:  # Deleted before the lock below was asked for.
        raise GameDeleted from None
    side_names = {side.pk: name for name, side in state.sides.items()}
    seat_names = {seat.pk: name for name, seat in state.seats.items()}
    # The game row locked first, by bumping its version (the watch page's ETag), and only then the last hand read: in
    # PostgreSQL a statement that waited for the lock still sees the other rows as they were when it began, before
    # the write it waited for. A hand refused below rolls the version back with the transaction.
    if not Game.objects.filter(pk=game.pk).update(version=F("version") + 1, updated_at=timezone.now()):
        raise GameDeleted
    # What the hands so far left: the game's winner, the last hand's number and dealer, each side's total.
    game.winner_id, version = Game.objects.filter(pk=game.pk).values_list("winner_id", "version").get()
    game.status = Game.Status.FINISHED if game.winner_id else Game.Status.IN_PROGRESS
    last = Hand.objects.filter(game=game).order_by("-number").only("number", "dealer_id").first()
    totals = dict.fromkeys(state.table.sides, 0)
    if last is not None:
        totals.update({side_names[side]: total for side, total in last.scores.values_list("side_id", "total")})
    last_dealer = seat_names[last.dealer_id] if last is not None else None
    next_number = last.number + 1 if last is not None else 1
    if number is not None and number < next_number:
        raise _Recorded
    if number is not None and number > next_number:
        raise RulesError(
            Problem(_("the next hand is hand %(next)s, not %(number)s") % {"next": next_number, "number": number}, hand=number)
        )
    winner = side_names[game.winner_id] if game.winner_id else None
    scored = rules.score_next(state.table, hand, number=next_number, last_dealer=last_dealer, before=totals, winner=winner)
    stored = Hand.objects.create(game=game, number=next_number, idempotency_key=idempotency_key, **hand_fields(state, scored))
    stored.side_scores = HandScore.objects.bulk_create(score_rows(state, stored, scored))
    if scored.winner is not None:  # The game is over: its seats' figures are counted from all of its hands, and it is rated.
        whole = load_game(game)
        _save_figures(whole, whole.replay())
        set_result(state, scored.winner)
        game.save(update_fields=["winner", "status"])
        update_ratings(league=League(pk=game.league_id), from_game=game)
    game.version = version
    return stored


def _stored_under(game: Game, idempotency_key: uuid.UUID | None, number: int | None, hand: rules.Hand) -> Hand:
    """The hand already stored under this key, if it is this hand under this number (a double tap or a retry); if the
    key is another hand's, KeyUsedForAnotherHand; if no hand has the key, hand ``number`` was another phone's."""
    stored = Hand.objects.filter(game=game, idempotency_key=idempotency_key).first() if idempotency_key else None
    if stored is None:
        raise HandAlreadyRecorded(number or 0)
    if (number is not None and number != stored.number) or not _sent_again(hand, load_game(game).inputs[stored.number - 1]):
        raise KeyUsedForAnotherHand(stored.number)
    return with_side_scores([stored])[0]


def _sent_again(hand: rules.Hand, entered: rules.Hand) -> bool:
    """Whether ``hand`` is the hand ``entered`` sent again: the same taps, and the same bids in its auction. Not who
    made them, nor who dealt: a phone sends no dealer, and its auction is read from the next dealer's left."""

    def bids(hand: rules.Hand) -> list[int | None] | None:
        return None if hand.bids is None else [bid for _player, bid in hand.bids]

    taps = dataclasses.replace(hand, dealer=None, bids=None) == dataclasses.replace(entered, dealer=None, bids=None)
    return taps and bids(hand) == bids(entered)


def _rewrite(state: GameState, inputs: list[rules.Hand], hands: list[Hand]) -> None:
    """Replay the whole game with these inputs and store every hand's results again."""
    result = state.replay(inputs)
    HandScore.objects.filter(hand__game=state.game).delete()
    scores = []
    for hand, scored in zip(hands, result.hands, strict=True):
        for name, value in hand_fields(state, scored).items():
            setattr(hand, name, value)
        scores.extend(score_rows(state, hand, scored))
    Hand.objects.bulk_update(hands, ["dealer", "pitcher", "bid", "auction", "points", "set", "ends_game"])
    HandScore.objects.bulk_create(scores)
    _save_figures(state, result)
    _finish(state, result.winner)


def _unchanged(game: Game, version: int | None) -> None:
    """Refuse a write to a game that changed since the page the user acted on was shown (``version``: the
    game's version then, read again under the lock; None: the caller does not ask)."""
    if version is not None and game.version != version:
        raise Refused(_("The game was changed on another phone meanwhile; nothing was changed. Here it is as it stands now."))


@transaction.atomic
def edit_hand(*, game: Game, number: int, hand: rules.Hand, version: int | None = None) -> Hand:
    """Change an earlier hand; every later total is recomputed.

    Refused, with nothing changed, if the game would then end before hands that
    come after it, or if it is no longer at ``version`` (when given).
    """
    state = load_game(_locked(game))
    _unchanged(game, version)
    index = _index(state, number)
    if hand.dealer is None:
        hand = dataclasses.replace(hand, dealer=state.inputs[index].dealer)
    inputs = list(state.inputs)
    inputs[index] = hand
    _rewrite(state, inputs, state.hands)
    return state.hands[index]


@transaction.atomic
def delete_hand(*, game: Game, number: int, version: int | None = None) -> None:
    """Delete a hand; later hands move up one and every total is recomputed. Refused, with nothing changed,
    if the game is no longer at ``version`` (when given)."""
    state = load_game(_locked(game))
    _unchanged(game, version)
    _delete(state, number)


@transaction.atomic
def undo_hand(*, game: Game, number: int) -> rules.Hand:
    """Delete hand ``number`` if it is still the last hand; refused, with nothing changed, if another phone
    added a hand or undid this one meanwhile (the count is read under the game's lock).

    Returns the hand as it was entered (its dealer and auction too), for ``restore_hand``; ``game.version`` is
    then the game's version after the undo."""
    state = load_game(_locked(game))
    last = len(state.hands)
    if last > number:
        raise Refused(_("Hand %(last)s was added meanwhile; nothing was undone.") % {"last": last})
    if last < number or number < 1:
        raise Refused(_("Hand %(number)s is not the last hand any more, so nothing was undone.") % {"number": number})
    undone = state.inputs[number - 1]
    _delete(state, number)
    return undone


@transaction.atomic
def restore_hand(*, game: Game, number: int, hand: rules.Hand, key: uuid.UUID, version: int) -> Hand:
    """Put an undone hand back (``undo_hand``'s answer) as hand ``number``, recorded again by ``record_hand``.

    ``version`` is the game's version right after the undo: refused, with nothing changed, if the game changed
    since (a hand saved, edited, deleted or undone on any phone). ``key`` is the restore's own: a second tap finds
    the hand it stored and changes nothing.
    """
    _locked(game)
    stored = Hand.objects.filter(game=game, idempotency_key=key).first()
    if stored is not None:
        return with_side_scores([stored])[0]
    if game.version != version:
        if Hand.objects.filter(game=game, number__gte=number).exists():
            raise Refused(_("Hand %(number)s was saved meanwhile, so nothing was restored.") % {"number": number})
        raise Refused(_("The game was changed meanwhile, so nothing was restored."))
    return record_hand(game=game, hand=hand, number=number, idempotency_key=key)


def _delete(state: GameState, number: int) -> None:
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
        raise RulesError(Problem(_("there is no hand %(number)s in this game") % {"number": number}))
    return number - 1


@transaction.atomic
def change_rules(*, game: Game, rules: Rules, version: int) -> None:
    """Play a game that has no hand yet by other rules (its target, house rules, variant). Refused, with nothing
    changed, once a hand is recorded (the hands were scored by the rules they were played by) or if the game is no
    longer at ``version``."""
    _locked(game)
    _unchanged(game, version)
    if Hand.objects.filter(game=game).exists():
        raise Refused(_("A hand is recorded already, so the rules stay as they are; nothing was changed."))
    if game.on_paper:
        raise Refused(_("The game's result is recorded from paper, so the rules stay as they are; nothing was changed."))
    for name, value in Game.fields_of(rules).items():
        setattr(game, name, value)
    game.version += 1
    game.save(update_fields=[*Game.fields_of(rules), "version", "updated_at"])


@transaction.atomic
def record_paper_result(*, game: Game, totals: Mapping[str, int], hands: int | None = None, version: int | None = None) -> None:
    """Finish a game played on paper with its final scores (``totals``, by side as the engine names them) and, if
    known, how many hands it had: the engine names the winner (``rules.paper_winner``), or refuses scores the
    game's rules could not end with. The seats hold their side's score and no hand figures, so the game counts in
    the standings (games, wins, points) and the ratings like any other, and in no statistic of hands.

    Refused, with nothing changed, for a game that has hands or is finished already, or that is no longer at
    ``version`` (when given)."""
    _locked(game)
    _unchanged(game, version)
    if game.is_finished:
        raise Refused(_("The game is finished already, so nothing was recorded."))
    if Hand.objects.filter(game=game).exists():
        raise Refused(_("The game has hands recorded on a phone, so it cannot take a result from paper; nothing was changed."))
    try:
        state = load_game(game, hands=False)
    except Game.DoesNotExist:
        raise GameDeleted from None
    table = state.table
    if set(totals) != set(table.sides):
        raise RulesError(Problem(_("give a final score for each side: %(sides)s") % {"sides": ", ".join(table.sides)}))
    winner = rules.paper_winner(table.rules, totals, hands=hands)
    game.on_paper, game.paper_hands = True, hands
    set_result(state, winner)
    game.version += 1
    game.save(update_fields=["on_paper", "paper_hands", "winner", "status", "version", "updated_at"])
    _store_figures(state, paper_figures(table, totals), winner=winner, before=None)
    update_ratings(league=League(pk=game.league_id), from_game=game)


@transaction.atomic
def delete_game(*, game: Game, version: int) -> None:
    """Delete a game and its hands. A finished game leaves its season's totals, and the league's ratings are worked
    out again from the day it was played. Refused, with nothing changed, if the game is no longer at ``version``, or
    for a card night's table (the night's rounds are seated and counted from its tables)."""
    _locked(game)
    _unchanged(game, version)
    if game.round_id is not None:
        raise Refused(_("A card night's table is part of its night's rounds and standings, so it cannot be deleted; nothing was changed."))
    finished = game.is_finished
    if finished:
        count_game(game=game, before=_counted(game), after=None)
    where = Game(pk=game.pk, league_id=game.league_id, played_on=game.played_on)
    game.delete()
    if finished:
        update_ratings(league=League(pk=where.league_id), from_game=where)
