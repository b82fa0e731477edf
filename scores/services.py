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
from collections.abc import Mapping, Sequence

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery, Value
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from openskill.models import PlackettLuce

from . import history, rules
from .models import Game, Hand, HandScore, Invite, League, Membership, Player, PlayerRating, Removal, Role, Seat, Side, ordinal
from .names import clean as clean_name
from .names import key as name_key


class Refused(Exception):
    """A write refused with nothing changed, with the message to show (the game changed since the page was
    shown, a league would lose its last owner, an invite no longer joins...)."""


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


def load_game(game: Game, *, hands: bool = True) -> GameState:
    """Read a game's seats, sides and hands into the engine's terms, in two queries.

    ``hands=False`` reads no hand, in one query: the table and who deals next are what a hand form and a
    scoreboard need, without reading a long game's every hand.
    """
    # Each seat comes with its player and side, and with who dealt the game's last hand: every write and every
    # game page starts here.
    last_dealer = Hand.objects.filter(game=OuterRef("game")).order_by("-number").values("dealer_id")[:1]
    seats = list(
        Seat.objects.filter(game=game).select_related("player", "side").annotate(last_dealer_id=Subquery(last_dealer)).order_by("position")
    )
    last_dealer_id = seats[-1].last_dealer_id if seats else None
    sides_by_pk: dict[int, Side] = {}
    for seat in seats:  # Partners share one Side.
        seat.side = sides_by_pk.setdefault(seat.side_id, seat.side)
    sides = sorted(sides_by_pk.values(), key=lambda side: side.position)
    side_names = {side.pk: side.name for side in sides}
    seat_names = {seat.pk: seat.player.name for seat in seats}
    teams = ()
    if game.partnership:
        teams = tuple(rules.Team(side.name, tuple(seat_names[s.pk] for s in seats if s.side_id == side.pk)) for side in sides)
    table = rules.Table(seats=tuple(seat_names[s.pk] for s in seats), rules=game.rules, teams=teams)
    stored = list(Hand.objects.filter(game=game).order_by("number")) if hands else []
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


def _lock_league(league: League, by) -> Membership:
    """Lock the league's row until the transaction ends, so changes to its members queue (on SQLite the
    IMMEDIATE transaction already does), and return ``by``'s membership as it is now: an owner demoted or
    removed a moment ago may no longer act, though the page let them."""
    list(League.objects.select_for_update().filter(pk=league.pk))  # Only the lock is wanted, not the row.
    actor = Membership.objects.filter(league=league, user=by, role=Role.OWNER).first()
    if actor is None:
        raise Refused(_("You are no longer an owner of this league: nothing was changed."))
    return actor


def _member(league: League, pk: int) -> Membership:
    member = Membership.objects.select_related("user").filter(league=league, pk=pk).first()
    if member is None:
        raise Refused(_("That person is no longer a member of the league."))
    return member


def _keeps_an_owner(league: League, member: Membership) -> bool:
    """Whether the league has an owner besides ``member`` (read under the league's lock)."""
    return Membership.objects.filter(league=league, role=Role.OWNER).exclude(pk=member.pk).exists()


@transaction.atomic
def change_role(*, league: League, member_pk: int, role: str, by) -> Membership:
    """Give a member another role; refused if that would leave the league without an owner."""
    _lock_league(league, by)
    member = _member(league, member_pk)
    if member.role == Role.OWNER and role != Role.OWNER and not _keeps_an_owner(league, member):
        raise Refused(_("%(user)s is the only owner: make someone else owner first.") % {"user": member.user})
    member.role = role
    member.save(update_fields=["role"])
    return member


@transaction.atomic
def remove_member(*, league: League, member_pk: int, by) -> Membership:
    """Take a member out of the league (``by`` themself: leaving it); refused if that would leave it without
    an owner. Someone an owner removes cannot come back through an invite link made before (``Removal``)."""
    actor = _lock_league(league, by)
    member = _member(league, member_pk)
    if member.role == Role.OWNER and not _keeps_an_owner(league, member):
        raise Refused(_("%(user)s is the only owner and cannot be removed.") % {"user": member.user})
    leaving = member.pk == actor.pk
    member.delete()
    if not leaving:
        Removal.objects.update_or_create(league=league, user=member.user, defaults={"removed_at": timezone.now()})
    return member


def invite_refusal(invite: Invite, user) -> str | None:
    """Why this invite link does not let ``user`` join, or None if it does (a member already: None)."""
    if invite.revoked or invite.is_expired:
        return _("This invite link no longer works: ask an owner of the league for a new one.")
    if Membership.objects.filter(league_id=invite.league_id, user=user).exists():
        return None
    if Removal.objects.filter(league_id=invite.league_id, user=user, removed_at__gte=invite.created_at).exists():
        return _("You were removed from this league: ask an owner to invite you again.")
    return None


@transaction.atomic
def accept_invite(*, invite: Invite, user) -> tuple[Membership, bool]:
    """Make ``user`` a member with the invite's role; an existing member keeps the role they have.

    Refused (``invite_refusal``) if the link was revoked or has expired, or if an owner removed ``user`` after
    the link was made; a link made after the removal is the owner inviting them again, and clears it.
    Returns the membership and whether it is new.
    """
    locked = Invite.objects.select_for_update().filter(pk=invite.pk).first()  # Revoked a moment ago? Wait and see.
    refusal = _("This invite link no longer works: ask an owner of the league for a new one.")
    if locked is None or (refusal := invite_refusal(locked, user)) is not None:
        raise Refused(refusal)
    Removal.objects.filter(league_id=invite.league_id, user=user).delete()
    return Membership.objects.get_or_create(league_id=invite.league_id, user=user, defaults={"role": invite.role})


def set_watch_link(*, game: Game, on: bool) -> None:
    """Turn the game's read-only watch link off, or on with a new token: the old link then stops working."""
    game.share_token = League.new_token() if on else None
    Game.objects.filter(pk=game.pk).update(share_token=game.share_token)


def _locked(game: Game) -> Game:
    """The game, its row locked until the transaction ends so writes to one game queue, and what a write changes
    (status, winner, version) read again under the lock. The rest of a game never changes once it has started."""
    game.status, game.winner_id, game.version = Game.objects.locked_state(game.pk)
    return game


@transaction.atomic
def start_game(
    *,
    league: League,
    seats: Sequence[str],
    target: int = rules.DEFAULT_TARGET,
    house_rules: Mapping[str, object] | None = None,
    teams: Sequence[tuple[str, Sequence[str]]] = (),
    first_dealer: str | None = None,
    played_on: datetime.date | None = None,
    code: str | None = None,
) -> Game:
    """Seat the players (creating new names in the league) and start a game.

    ``first_dealer`` turns the table so that player is seat 1, who deals first. ``house_rules`` are the
    ``rules.Rules`` keys besides the target (``going_out``, ``min_bid``, ``steal``, ``smudge``); missing ones
    are the rule sheet's. The game keeps them: nothing changes them once it has started.
    """
    names = [clean_name(name) if isinstance(name, str) else name for name in seats]
    game_rules = rules.Rules(target=target, **(house_rules or {}))
    table = rules.Table(seats=tuple(names), rules=game_rules, teams=tuple(rules.Team(clean_name(n), tuple(p)) for n, p in teams))
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
    game = Game.objects.create(league=league, code=code, played_on=played_on, **game_rules.as_dict(), partnership=table.partnership)
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
    score shows the new name. The name is stored in its normal form (``scores.names``).
    """
    name = clean_name(name)
    sides = Side.objects.filter(game__partnership=False, seats__player=player)
    Game.objects.filter(sides__in=sides).update(version=F("version") + 1)
    sides.update(name=name)
    Player.objects.filter(pk=player.pk).update(name=name)
    player.name = name


def players_named(league: League, names: Sequence[str]) -> dict[str, Player]:
    """The league's players by these names, compared as ``scores.names.key`` does; unknown names become new players."""
    existing = {name_key(p.name): p for p in Player.objects.filter(league=league)}
    found = {}
    for name in names:
        player = existing.get(name_key(name))
        if player is None:
            player = existing[name_key(name)] = Player.objects.create(league=league, name=name)
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
    side_names = {side.pk: side.name for side in state.sides.values()}
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
    game.save(update_fields=["winner", "status", "version", "updated_at"])
    if was_finished or game.is_finished:  # Only finished games are rated: a hand of a game in progress changes no rating.
        update_ratings(league=League(pk=game.league_id), from_game=game)


def _save_figures(state: GameState, hands: Sequence[rules.ScoredHand], *, added: bool) -> None:
    """Store the seats' figures over these hands, in one UPDATE: the whole game's (``added=False``), or one
    more hand's, added to what is stored (``F()``, as the seats were read before the game was locked)."""
    seats = [
        Seat(
            pk=state.seats[name].pk,
            **{field: F(field) + value if added else value for field, value in zip(Seat.FIGURES, values, strict=True)},
        )
        for name, values in _figures(state, hands).items()
    ]
    Seat.objects.bulk_update(seats, Seat.FIGURES)


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
    # The last hand's number, dealer and totals, a row per side, and whether a hand has this key already.
    key_used = Exists(Hand.objects.filter(game=game, idempotency_key=idempotency_key)) if idempotency_key else Value(False)
    last = (
        HandScore.objects.filter(hand__game=game)
        .order_by("-hand__number")
        .values_list("hand__number", "hand__dealer_id", "side_id", "total", key_used)[: len(side_names)]
    )
    totals = dict.fromkeys(state.table.sides, 0) | {side_names[side_id]: total for _number, _dealer, side_id, total, _used in last}
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
    if last and last[0][4]:  # The key is a hand's already. Under the game's lock, nothing can come in between.
        return _stored_under(game, idempotency_key, next_number)
    stored = Hand.objects.create(game=game, number=next_number, idempotency_key=idempotency_key, **_hand_fields(state, scored))
    stored.side_scores = HandScore.objects.bulk_create(_scores(state, stored, scored))
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
        for score in HandScore.objects.filter(hand__in=list(by_hand)).order_by("hand_id", "side__position"):
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
def undo_hand(*, game: Game, number: int) -> None:
    """Delete hand ``number`` if it is still the last hand; refused, with nothing changed, if another phone
    added a hand or undid this one meanwhile (the count is read under the game's lock)."""
    state = load_game(_locked(game))
    last = len(state.hands)
    if last > number:
        raise Refused(_("Hand %(last)s was added meanwhile; nothing was undone.") % {"last": last})
    if last < number or number < 1:
        raise Refused(_("Hand %(number)s is not the last hand any more, so nothing was undone.") % {"number": number})
    _delete(state, number)


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
        raise rules.RulesError(rules.Problem(_("there is no hand %(number)s in this game") % {"number": number}))
    return number - 1


@dataclasses.dataclass(frozen=True)
class ImportReport:
    """What an import did: the game ids it stored, those the league already had, and the file's names
    that are a league player spelt another way ("ann", "Ann")."""

    imported: tuple[str, ...]
    skipped: tuple[str, ...]
    matched: tuple[tuple[str, str], ...] = ()


IMPORT_BATCH = 500  # Games per round of bulk inserts: a few queries per round, memory bounded by the round.


@transaction.atomic
def import_history(*, league: League, source: bytes | str) -> ImportReport:
    """Import a history file (``shared/spec/history-format.md``) into a league, all or nothing.

    Every problem in the file is raised together (``history.HistoryError``) and
    nothing is stored. Games whose id the league already has are skipped, so the
    same file can be imported twice. Scores come from the rules engine; the
    file's derived fields are ignored. Games are stored in bulk, a batch of games
    at a time, and the league's ratings are updated once, at the end.
    """
    games = history.read(source)
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
    matched = tuple((name, player.name) for name, player in players.items() if player.name != name)
    return ImportReport(imported=tuple(found.id for found in new), skipped=skipped, matched=matched)


def _store_new_games(league: League, batch: Sequence[history.GameInput], players: dict[str, Player]) -> list[Game]:
    """start_game and record_hand for a batch of new games, in a few bulk inserts however many games and hands."""
    today = timezone.localdate()
    by_name = {player.name: player for player in players.values()}
    games = Game.objects.bulk_create(
        Game(
            league=league,
            code=found.id,
            played_on=found.played_on or today,
            **found.table.rules.as_dict(),
            partnership=found.table.partnership,
        )
        for found in batch
    )
    # Seat and side names as start_game stores them: a known player keeps the league's spelling.
    tables = [
        rules.Table(
            seats=tuple(players[name].name for name in found.table.seats),
            rules=found.table.rules,
            teams=tuple(rules.Team(t.name, tuple(players[found.table.player(p)].name for p in t.players)) for t in found.table.teams),
        )
        for found in batch
    ]
    sides = Side.objects.bulk_create(
        Side(game=game, position=i, name=name) for game, table in zip(games, tables, strict=True) for i, name in enumerate(table.sides)
    )
    side_at = {(side.game_id, side.name): side for side in sides}
    seats, states, results = [], [], []
    for game, table, found in zip(games, tables, batch, strict=True):
        side_of = {p: t.name for t in table.teams for p in t.players} if table.partnership else {n: n for n in table.seats}
        state = GameState(
            game=game,
            table=table,
            seats={
                name: Seat(game=game, player=by_name[name], position=i, side=side_at[game.pk, side_of[name]])
                for i, name in enumerate(table.seats)
            },
            sides={name: side_at[game.pk, name] for name in table.sides},
            hands=[],
            inputs=[],
            last_dealer=None,
        )
        result = state.replay(found.hands)
        seats.extend(_count_figures(state, result))  # Counted before the seats are inserted: no update afterwards.
        states.append(state)
        results.append(result)
    Seat.objects.bulk_create(seats, batch_size=1000)
    hands = [
        Hand(game=state.game, number=scored.number, **_hand_fields(state, scored))
        for state, result in zip(states, results, strict=True)
        for scored in result.hands
    ]
    Hand.objects.bulk_create(hands, batch_size=2000)
    scores = []
    position = 0
    for state, result in zip(states, results, strict=True):
        for scored in result.hands:
            scores.extend(_scores(state, hands[position], scored))
            position += 1
        _set_result(state, result.winner)
        state.game.version = 1
    HandScore.objects.bulk_create(scores, batch_size=2000)
    Game.objects.bulk_update(games, ["winner", "status", "version"], batch_size=IMPORT_BATCH)
    return games
