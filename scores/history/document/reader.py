"""A history document read and checked (docs/history-format.md), versions 1 and 2: its shape (keys, types, names) is
checked here and every game handed to ``scores.engine.rules`` to check bidding, scoring and winning, every problem
collected with where it is; what is read is the engine's values (``GameInput``). Nothing here scores a hand: the
derived fields in a file are ignored and recomputed by the rules engine. A version 1 document (the 4-point game,
teams of two) is read as it always was, and may hold none of version 2's keys. Pure Python."""

from __future__ import annotations

import datetime
import difflib
import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from django.utils.functional import Promise
from django.utils.translation import gettext as _

from ...engine import rules
from ...engine.names import SURROGATE, mend
from ...engine.names import clean as clean_name
from ...engine.problems import EXCERPT, excerpt
from .format import (
    A_GAME,
    A_GAMES_RULES,
    A_HAND,
    A_PAPER_RESULT,
    A_PLAYERS_NAME,
    A_SEASON,
    A_SEASONS_NAME,
    A_TEAM,
    BY_NUMBER,
    DATE,
    DOCUMENT_KEYS,
    FORMAT,
    HANDS,
    IN_POINTS,
    LEAGUE_KEYS,
    MAX_DEPTH,
    MAX_ID_LENGTH,
    MAX_NAME_LENGTH,
    MAX_SEASON_NAME_LENGTH,
    MAY_HOLD_ESCAPED_SURROGATE,
    MAY_HOLD_SURROGATE,
    MAY_HOLD_SURROGATE_BYTES,
    OF_VERSION_2,
    PAPER,
    PAPER_KEYS,
    REQUIRED_HINTS,
    RULES_VALUES,
    SEASON_KEYS,
    TEAM_KEYS,
    THE_LEAGUE,
    V1,
    V1_MAX_TARGET,
    V1_MIN_BIDS,
    V1_POINTS,
    V2,
    VERSIONS,
    GameInput,
    HistoryError,
    Problem,
    SeasonInput,
    Version,
)


class _Object(dict[str, Any]):
    """A JSON object that gave some keys more than once (json keeps only the last value): which, in ``duplicates``."""

    duplicates: tuple[str, ...] = ()


def _object(pairs: list[tuple[str, object]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    duplicates = []
    for key, _value in pairs:
        if key in seen:
            duplicates.append(key)
        seen.add(key)
    given_twice = _Object(obj)
    given_twice.duplicates = tuple(duplicates)
    return given_twice


def _no_constant(name: str) -> object:
    raise ValueError(_("%(name)s is not a number JSON allows") % {"name": name})


def load_json(source: bytes | str, *, objects: bool = True) -> object:
    """The JSON value in a file's bytes or text; HistoryError says what is wrong with a file that is not JSON, or
    that nests deeper than a history file goes (``MAX_DEPTH``).

    An object that gives a key more than once is an ``_Object``, which says which. ``objects=False`` only checks
    that it is JSON: objects are plain dicts, and neither the keys nor the depth are looked at.
    """
    if isinstance(source, bytes):
        try:
            # A byte-order mark is what some editors put first in UTF-8 files; it is not part of the document.
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            message = _("the file is not UTF-8 text: byte %(position)s cannot be read") % {"position": error.start + 1}
            raise HistoryError(Problem(message)) from error
    if not source.strip():
        raise HistoryError(Problem(_("the file is empty")))
    try:
        value = json.loads(source, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        where = {"error": error.msg, "line": error.lineno, "column": error.colno}
        raise HistoryError(Problem(_("the file is not valid JSON: %(error)s (line %(line)s, column %(column)s)") % where)) from error
    except RecursionError as error:  # Nested deeper than the parser goes.
        raise _too_deep() from error
    except ValueError as error:
        raise HistoryError(Problem(_("the file is not valid JSON: %(error)s") % {"error": error})) from error
    if not objects:
        return value
    depth, keys = _shape(value)
    if depth > MAX_DEPTH:
        raise _too_deep()
    if keys != _keys_given(source):  # Some key was given twice (or the text cannot tell): decoded again, keeping them.
        value = json.loads(source, object_pairs_hook=_object, parse_constant=_no_constant)
    return value


def _too_deep() -> HistoryError:
    message = _("the file nests values more than %(max)s levels deep; a history file never goes that deep") % {"max": MAX_DEPTH}
    return HistoryError(Problem(message))


# What a decoded file's objects and lists are (``load_json``): their exact types, looked up in a set rather than
# asked of ``isinstance``, as the reader asks it of every value of a file of hundreds of thousands of hands.
JSON_CONTAINERS = frozenset({_Object, dict, list})


def _shape(value: object) -> tuple[int, int]:
    """How many levels deep objects and lists nest in ``value`` (as json decodes it), and how many keys its objects
    hold in all: a level at a time, without recursion."""
    depth = keys = 0
    level: list[Any] = [value] if type(value) in JSON_CONTAINERS else []
    while level:
        depth += 1
        keys += sum(len(item) for item in level if type(item) is not list)
        # Only the objects and lists go on to the next level: most values are neither.
        level = [child for item in level for child in (item if type(item) is list else item.values()) if type(child) in JSON_CONTAINERS]
    return depth, keys


# White space between a key and its colon, which a count of the keys in the text would miss.
SPACED_COLONS = (" :", "\t:", "\n:", "\r:")


def _keys_given(text: str) -> int | None:
    """How many keys the objects of a JSON text give, counted in the text, or None where there may be white space
    before a colon: each key's closing quote is followed by its colon. (An escaped quote followed by a colon, inside
    a string, is counted too, so the count is never less than the keys given.) Decoded, the objects hold as many keys
    unless one gave a key twice: told so from the text, the file is decoded once, with no hook called for each object."""
    if any(spaced in text for spaced in SPACED_COLONS):
        return None
    return text.count('":')


def read(source: bytes | str, *, max_games: int | None = None) -> list[GameInput]:
    """The games in a history file; HistoryError lists every problem in it, or says it holds too many games."""
    data = load_json(source)
    games = data.get("games") if isinstance(data, dict) else None
    if max_games is not None and isinstance(games, list) and len(games) > max_games:
        # Said before any game is checked: a file of a hundred thousand tiny games is refused at once.
        message = _("the file holds %(count)s games; one import takes at most %(max)s") % {"count": len(games), "max": max_games}
        raise HistoryError(Problem(message))
    # The text is searched once, so that the millions of values of a large file are not each looked through.
    if isinstance(source, bytes):
        may_hold = MAY_HOLD_SURROGATE_BYTES.search(source) is not None
    elif source.isascii():  # Most files: in ASCII a surrogate can only be an escape, so only escapes are looked for.
        may_hold = MAY_HOLD_ESCAPED_SURROGATE.search(source) is not None
    else:
        may_hold = MAY_HOLD_SURROGATE.search(source) is not None
    return read_document(data, mend_surrogates=may_hold)


def _show(value: object) -> str:
    """A value as the file has it, shortened: ``5``, ``"Ann"``, ``null``."""
    return excerpt(json.dumps(value, ensure_ascii=False, default=str))


def _is_text(value: object) -> TypeGuard[str]:
    # A NUL byte is no part of a name, and PostgreSQL cannot store one.
    return isinstance(value, str) and bool(value.strip()) and "\x00" not in value


class _Checker:
    """Collects the problems of one part of a document, all at the same place."""

    def __init__(self, problems: list[Problem], game: str | int | None = None, hand: int | None = None) -> None:
        self.problems = problems
        self.game = game
        self.hand = hand
        self.fields: set[str | None] = set()  # Where a problem was found, so the engine's twin of it is not repeated.

    def add(self, field: str | None, message: str) -> None:
        self.fields.add(field)
        self.problems.append(Problem(message, hand=self.hand, field=field, game=self.game))

    def is_object(self, value: object, what: str | Promise, field: str | None = None) -> TypeGuard[dict[str, Any]]:
        if isinstance(value, dict):
            return True
        self.add(field, _("%(what)s must be an object {...}, got %(value)s") % {"what": what, "value": _show(value)})
        return False

    def keys(
        self,
        obj: dict[str, object],
        allowed: Sequence[str],
        required: Sequence[str],
        what: str | Promise,
        prefix: str = "",
        elsewhere: Mapping[str, str | Promise] | None = None,
    ) -> None:
        """Report the keys ``obj`` may not have, those it has twice and those it lacks. ``elsewhere``: keys the other
        version of the format has here, each with what to say of it."""
        for key in obj:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1) if len(key) <= EXCERPT else []  # No misspelling is that long.
                if elsewhere and key in elsewhere:
                    hint = elsewhere[key]
                elif close:
                    hint = _('did you mean "%(key)s"?') % {"key": close[0]}
                else:
                    hint = _("%(what)s has only %(keys)s") % {"what": what, "keys": ", ".join(allowed)}
                self.add(prefix.rstrip(" ,.") or None, _('unknown key "%(key)s" (%(hint)s)') % {"key": excerpt(key), "hint": hint})
        for key in getattr(obj, "duplicates", ()):
            self.add(prefix + excerpt(key), _('the key "%(key)s" is given more than once') % {"key": excerpt(key)})
        for key in required:
            if key not in obj:
                self.add(prefix + key, _("this key is required") + (REQUIRED_HINTS[key]() if key in REQUIRED_HINTS else ""))

    def name(self, value: object, field: str, what: str | Promise) -> bool:
        if not (isinstance(value, str) and clean_name(value)):
            self.add(field, _("must be %(what)s, got %(value)s") % {"what": what, "value": _show(value)})
            return False
        # As stored: a ligature or a full-width letter may become more than one character.
        name = clean_name(value)
        if len(name) > MAX_NAME_LENGTH:
            self.add(field, _("%(value)s is too long: at most %(max)s characters") % {"value": _show(name), "max": MAX_NAME_LENGTH})
            return False
        return True


def read_document(data: object, *, mend_surrogates: bool = True) -> list[GameInput]:
    """Check a decoded document and turn its games into the engine's inputs; HistoryError lists every problem.

    ``mend_surrogates=False`` when the document is known to hold no lone surrogate (``read`` looked at its text).
    """
    problems: list[Problem] = []
    check = _Checker(problems)
    if not check.is_object(data, _("the document")):
        raise HistoryError(problems)
    assert isinstance(data, dict)
    if mend_surrogates:
        data = _mended(data, check, skip=("games",))
    check.keys(data, DOCUMENT_KEYS, ("format", "version", "games"), _("the document"))
    version = _read_version(data, check)
    if version is None:
        # A file in another format or version: its games would only be misread, so nothing else is checked.
        raise HistoryError(problems)
    _check_about(data, check)
    games = data.get("games", [])
    if not isinstance(games, list):
        check.add("games", _("must be a list of games [...], got %(value)s") % {"value": _show(games)})
        games = []
    found = _read_games(games, problems, version, mend_surrogates=mend_surrogates)
    _check_seasons(found, problems)
    if problems:
        raise HistoryError(problems)
    return found


def _read_version(data: dict[str, Any], check: _Checker) -> Version | None:
    """The document's version, or None when its format or version is missing or not one this app reads."""
    if "format" in data and data["format"] != FORMAT:
        check.add("format", _('must be "%(format)s", got %(value)s') % {"format": FORMAT, "value": _show(data["format"])})
    if "version" in data and not (type(data["version"]) is int and data["version"] in VERSIONS):
        message = _("must be 1 or 2, got %(value)s: this app reads versions 1 and 2")
        check.add("version", message % {"value": _show(data["version"])})
    if any(p.field in ("format", "version") for p in check.problems):
        return None
    return BY_NUMBER[data["version"]]


def _check_about(data: dict[str, Any], check: _Checker) -> None:
    """What the document says of itself: when it was exported, and the league's name."""
    if "exported_at" in data and not _is_timestamp(data["exported_at"]):
        message = _("must be a date and time like 2026-11-29T21:04:00Z, got %(value)s")
        check.add("exported_at", message % {"value": _show(data["exported_at"])})
    if "league" in data and check.is_object(data["league"], THE_LEAGUE, "league"):
        check.keys(data["league"], LEAGUE_KEYS, (), THE_LEAGUE, "league.")
        if "name" in data["league"] and not _is_text(data["league"]["name"]):
            check.add("league.name", _("must be the league's name, got %(value)s") % {"value": _show(data["league"]["name"])})


def _read_games(games: list[object], problems: list[Problem], version: Version, *, mend_surrogates: bool) -> list[GameInput]:
    """The games without problems, as the engine's inputs; every other game's problems are added to ``problems``."""
    found: list[GameInput] = []
    first_seen: dict[str, int] = {}
    for position, game in enumerate(games, start=1):
        before = len(problems)
        if mend_surrogates:
            game = _mended_game(game, position, problems)
        result = _read_game(game, position, first_seen, problems, version)
        if result is not None:
            found.append(result)
        # In the order of the file: the game's own problems, then hand by hand.
        problems[before:] = sorted(problems[before:], key=lambda p: p.hand or 0)
    return found


def season_problem(game: GameInput, season: SeasonInput, day: datetime.date, other: str) -> Problem:
    """A game (with its season and day) that the seasons (of the file, or of the league too) place in ``other``."""
    message = _("played on %(day)s, which is in season %(other)s, not in %(season)s")
    return Problem(message % {"day": day.isoformat(), "other": _show(other), "season": _show(season.name)}, field="season", game=game.id)


def _check_seasons(games: Sequence[GameInput], problems: list[Problem]) -> None:
    """The seasons the games name agree: a name has one first day, a day begins one season, and each game is in
    the season its day falls in (a season holds the games from its first day until the next one's)."""
    by_name: dict[str, tuple[SeasonInput, str]] = {}
    by_day: dict[datetime.date, SeasonInput] = {}
    for game in games:
        season = game.season
        if season is None:
            continue
        known, first = by_name.setdefault(season.name.casefold(), (season, game.id))
        if known.starts_on != season.starts_on:
            message = _("season %(season)s starts on %(start)s in game %(game)s, not on %(other)s")
            params = {"season": _show(season.name), "start": known.starts_on.isoformat(), "game": _show(first)}
            problems.append(Problem(message % {**params, "other": season.starts_on.isoformat()}, field="season", game=game.id))
            continue
        named = by_day.setdefault(season.starts_on, season)
        if named.name.casefold() != season.name.casefold():
            message = _("seasons %(season)s and %(other)s both start on %(start)s")
            params = {"season": _show(named.name), "other": _show(season.name), "start": season.starts_on.isoformat()}
            problems.append(Problem(message % params, field="season", game=game.id))
    starts = sorted(by_day)
    for game in games:
        if game.season is None or game.played_on is None or game.season.starts_on not in by_day:
            continue
        later = [day for day in starts if game.season.starts_on < day <= game.played_on]
        if later:
            problems.append(season_problem(game, game.season, game.played_on, by_day[later[-1]].name))


def _mended_game(game: object, position: int, problems: list[Problem]) -> object:
    """The game with its lone surrogates mended (``_mend``), each reported in the game, and the hand, it is in."""
    if not isinstance(game, dict):
        return _mend(game, "", _Checker(problems, game=position))
    game_id = mend(game["id"]) if isinstance(game.get("id"), str) else None
    # Where _read_game will say the game's other problems are: at its id when it has a usable one.
    where = game_id if _is_text(game_id) and len(game_id) <= MAX_ID_LENGTH else position
    check = _Checker(problems, game=where)
    mended = _mended(game, check, skip=("hands",))
    hands = game.get("hands")
    if isinstance(hands, list):
        mended["hands"] = [_mend(hand, "", _Checker(problems, game=where, hand=n)) for n, hand in enumerate(hands, start=1)]
    elif "hands" in game:
        mended["hands"] = _mend(hands, "hands", check)
    return mended


def _mend(value: object, path: str, check: _Checker) -> object:
    """The value with each lone surrogate in its text replaced by U+FFFD, and each reported at its path.

    Such a string (JSON can write one, "\\ud800") can be neither stored nor shown; mended, the rest of the
    document is checked as usual and every message about it can be shown.
    """
    if isinstance(value, str):
        found = SURROGATE.search(value)
        if found is None:
            return value
        check.add(path or None, _("is not text: it holds half of a UTF-16 pair (%(escape)s)") % {"escape": _escape(found[0])})
        return mend(value)
    if isinstance(value, list):
        return [_mend(item, f"{path}[{i}]", check) for i, item in enumerate(value, start=1)]
    if isinstance(value, dict):
        return _mended(value, check, path)
    return value


def _mended(obj: dict[str, Any], check: _Checker, path: str = "", skip: Sequence[str] = ()) -> dict[str, Any]:
    """``_mend`` for an object's keys and values; the values of the keys in ``skip`` are left as they are."""
    mended: dict[str, Any] = {}
    for key, value in obj.items():
        found = SURROGATE.search(key)
        if found is not None:
            key = mend(key)
        where = f"{path}.{key}" if path else key
        if found is not None:
            check.add(where, _("a key is not text: it holds half of a UTF-16 pair (%(escape)s)") % {"escape": _escape(found[0])})
        mended[key] = value if key in skip else _mend(value, where, check)
    if isinstance(obj, _Object):
        given_twice = _Object(mended)
        given_twice.duplicates = tuple(mend(key) for key in obj.duplicates)
        return given_twice
    return mended


def _escape(surrogate: str) -> str:
    return f"\\u{ord(surrogate):04x}"


def _is_timestamp(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _read_game(game: object, position: int, first_seen: dict[str, int], problems: list[Problem], version: Version) -> GameInput | None:
    """One game checked, or None when it has problems (they are added to ``problems``)."""
    before = len(problems)
    game_id = game.get("id") if isinstance(game, dict) else None
    usable_id = _is_text(game_id) and len(game_id) <= MAX_ID_LENGTH and game_id not in first_seen
    check = _Checker(problems, game=game_id if usable_id else position)
    if not check.is_object(game, A_GAME):
        return None
    assert isinstance(game, dict)
    elsewhere: dict[str, str | Promise] | None = None
    if version is V1:
        elsewhere = {"season": _("a game's season came with version 2"), PAPER: OF_VERSION_2}
    check.keys(game, version.game_keys, ("id", "seats", "hands"), A_GAME, elsewhere=elsewhere)
    if "id" in game:
        _check_id(game_id, position, first_seen, check)
    played_on = _read_date(game, check)
    season = _read_season(game, played_on, check) if "season" in game and version is V2 else None
    settings, teams, rules_ok = _read_rules(game, check, version)
    seats = game.get("seats")
    seats_ok = _check_seats(game, seats, check)
    hands = game.get("hands")
    if "hands" in game and not isinstance(hands, list):
        check.add("hands", _("must be a list of hands [...], got %(value)s") % {"value": _show(hands)})
    hands = hands if isinstance(hands, list) else []
    inputs, skip = _read_hands(hands, check.game, problems, version)
    names = tuple(clean_name(s) for s in seats if _is_text(s) and clean_name(s)) if isinstance(seats, list) else ()
    table = _read_table(names, settings, teams, check, version)
    if table is None or not (seats_ok and rules_ok):
        return None
    result, on_paper, paper_hands = _result(game, table, inputs, skip, check, version)
    if len(problems) > before:
        return None
    assert isinstance(game_id, str)
    assert result is not None  # The engine refused nothing the shape checks had not reported.
    return GameInput(
        id=game_id, played_on=played_on, table=table, hands=tuple(inputs), result=result, season=season, on_paper=on_paper,
        paper_hands=paper_hands,
    )  # fmt: skip


def _result(
    game: dict[str, Any], table: rules.Table, inputs: list[rules.Hand], skip: dict[int, set[str | None]], check: _Checker, version: Version
) -> tuple[rules.Replay | None, bool, int | None]:
    """The game's result: from paper (a version 2 game's ``paper``: its final scores, whether it was, and its number of
    hands if known), or its hands replayed by the engine; None where either has problems (added to ``check``)."""
    if PAPER in game and version is V2:
        paper = _read_paper(game[PAPER], table, has_hands=bool(inputs), check=check)
        return (paper[0], True, paper[1]) if paper is not None else (None, True, None)
    return _replay(table, inputs, skip, check, version), False, None


def _check_id(game_id: object, position: int, first_seen: dict[str, int], check: _Checker) -> None:
    """The game's id is text, not too long, and no other game's; a good one is kept in ``first_seen``."""
    if not _is_text(game_id):
        check.add("id", _("must be the game's id (text), got %(value)s") % {"value": _show(game_id)})
    elif len(game_id) > MAX_ID_LENGTH:
        check.add("id", _("is too long: at most %(max)s characters") % {"max": MAX_ID_LENGTH})
    elif game_id in first_seen:
        message = _("%(id)s is also the id of game %(number)s: ids must be unique in the document")
        check.add("id", message % {"id": _show(game_id), "number": first_seen[game_id]})
    else:
        first_seen[game_id] = position


def _check_seats(game: dict[str, Any], seats: object, check: _Checker) -> bool:
    """Whether the seats are a list of players' names (each bad one reported)."""
    if not isinstance(seats, list):
        if "seats" in game:
            check.add("seats", _("must be a list of the players' names, got %(value)s") % {"value": _show(seats)})
        return False
    seats_ok = True
    for i, name in enumerate(seats, start=1):
        seats_ok &= check.name(name, f"seats, seat {i}", A_PLAYERS_NAME)
    return seats_ok


def _read_table(
    names: tuple[str, ...], settings: dict[str, Any], teams: tuple[rules.Team, ...], check: _Checker, version: Version
) -> rules.Table | None:
    """The game's table, or None when the engine refuses its seats, teams or rules: each of its problems is added
    but at a place the shape checks already reported.

    Even with a bad seat, team or rule the table is checked, with what could be read, to find its other problems.
    """
    table_problems: list[rules.Problem] = []
    try:
        game_rules = rules.Rules(**settings)
    except rules.RulesError as error:
        table_problems.extend(error.problems)
        game_rules = rules.Rules()
    if version is V1 and teams and not (len(names) == 4 and len(teams) == 2 and all(len(team.players) == 2 for team in teams)):
        # Teams of three, and three teams, came with version 2.
        table_problems.append(rules.Problem(_("partnership play needs exactly 4 players in 2 teams of 2"), field="teams"))
        teams = ()
    try:
        table = rules.Table(seats=names, rules=game_rules, teams=teams)
    except rules.RulesError as error:
        table_problems.extend(error.problems)
    if not table_problems:
        return table
    where = {key: f"rules.{key}" for key in version.rules_keys}
    reported = {field.split(",")[0] for field in check.fields if field}
    for p in table_problems:
        field = where.get(p.field or "", p.field)
        if field not in reported:
            check.problems.append(Problem(p.message, field=field, game=check.game, template=p.template, params=p.params))
    return None


def _replay(
    table: rules.Table, inputs: list[rules.Hand], skip: dict[int, set[str | None]], check: _Checker, version: Version
) -> rules.Replay | None:
    """The game replayed by the engine, or None when it refuses a hand: each problem is added but at a place the
    shape checks already reported (``skip``: hand -> fields), where the engine would only say the same again."""
    try:
        return rules.replay(table, inputs)
    except rules.RulesError as error:
        # In version 2 a point's problem is at that key of the hand's "points".
        in_points = set(table.rules.points) if version is V2 else set()
        for p in error.problems:
            field = f"points.{p.field}" if p.field in in_points else p.field
            if p.hand not in skip or field not in skip[p.hand]:
                check.problems.append(Problem(p.message, hand=p.hand, field=field, game=check.game, template=p.template, params=p.params))
        return None


def _read_paper(value: object, table: rules.Table, *, has_hands: bool, check: _Checker) -> tuple[rules.Replay, int | None] | None:
    """A game recorded from paper: ``{"totals": {side: final score, ...}, "hands": number}`` (``hands`` only when
    known), checked by the engine (``rules.paper_winner``) as the game's final result; None when it has problems."""
    if not check.is_object(value, A_PAPER_RESULT, PAPER):
        return None
    before = len(check.problems)
    check.keys(value, PAPER_KEYS, ("totals",), A_PAPER_RESULT, f"{PAPER}.")
    if has_hands:
        check.add("hands", _("a game recorded from paper has no hands, got some"))
    totals: dict[str, object] = {}
    given = value.get("totals")
    if "totals" in value and check.is_object(given, _("a result from paper's totals"), f"{PAPER}.totals"):
        for name, total in given.items():
            side = table.side(name)
            if side is None or side in totals:
                message = _("%(value)s is not one of the sides (%(sides)s), or is given twice")
                check.add(f"{PAPER}.totals", message % {"value": _show(name), "sides": ", ".join(table.sides)})
            else:
                totals[side] = total
        missing = [side for side in table.sides if side not in totals]
        if missing and len(check.problems) == before:
            check.add(f"{PAPER}.totals", _("gives no final score for %(sides)s") % {"sides": ", ".join(missing)})
    if len(check.problems) > before:
        return None
    hands = value.get(HANDS)
    try:
        winner = rules.paper_winner(table.rules, totals, hands=hands)  # type: ignore[arg-type]  # The engine checks the numbers.
    except rules.RulesError as error:
        for p in error.problems:
            field = f"{PAPER}.hands" if p.field == "hands" else f"{PAPER}.totals.{p.field}" if p.field else f"{PAPER}.totals"
            check.problems.append(Problem(p.message, field=field, game=check.game, template=p.template, params=p.params))
        return None
    return rules.Replay(table=table, hands=(), totals=totals, winner=winner), hands  # type: ignore[arg-type]


def _read_date(game: dict[str, Any], check: _Checker, key: str = "played_on", field: str | None = None) -> datetime.date | None:
    if key not in game:
        return None
    value = game[key]
    if isinstance(value, str) and DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    check.add(field or key, _("must be a date YYYY-MM-DD, got %(value)s") % {"value": _show(value)})
    return None


def _read_season(game: dict[str, Any], played_on: datetime.date | None, check: _Checker) -> SeasonInput | None:
    """The game's season, ``{"name": ..., "starts_on": ...}``, or None when it has problems (added to ``check``)."""
    value = game["season"]
    if not check.is_object(value, A_SEASON, "season"):
        return None
    before = len(check.problems)
    check.keys(value, SEASON_KEYS, SEASON_KEYS, A_SEASON, "season.")
    name = value.get("name")
    if "name" in value:
        # As a season's name typed is stored: clean (``names.clean``), so none shows as nothing or turns text round.
        if not _is_text(name) or not clean_name(name):
            check.add("season.name", _("must be %(what)s, got %(value)s") % {"what": A_SEASONS_NAME, "value": _show(name)})
        elif len(clean_name(name)) > MAX_SEASON_NAME_LENGTH:
            message = _("%(value)s is too long: at most %(max)s characters")
            check.add("season.name", message % {"value": _show(clean_name(name)), "max": MAX_SEASON_NAME_LENGTH})
    starts_on = _read_date(value, check, "starts_on", "season.starts_on")
    if len(check.problems) > before or not isinstance(name, str) or starts_on is None:
        return None
    season = SeasonInput(clean_name(name), starts_on)
    if played_on is None:
        check.add("season", _("a game in a season needs the day it was played (played_on)"))
    elif played_on < starts_on:
        message = _("played on %(day)s, before its season %(season)s starts on %(start)s")
        check.add("season", message % {"day": played_on.isoformat(), "season": _show(season.name), "start": starts_on.isoformat()})
    return season


def _read_rules(game: dict[str, Any], check: _Checker, version: Version) -> tuple[dict[str, Any], tuple[rules.Team, ...], bool]:
    """The ``rules.Rules`` keys given (for the engine to check), the teams, and whether the shape was right.

    A missing key is its default (the variant's, or the rule sheet's), so a file written before the house rules
    scores as it did. A version 1 document is held to version 1's limits here, as the engine allows more.
    """
    if "rules" not in game:
        return {}, (), True
    rules_ = game["rules"]
    if not check.is_object(rules_, A_GAMES_RULES, "rules"):
        return {}, (), False
    assert isinstance(rules_, dict)
    elsewhere: dict[str, str | Promise] = {}
    if version is V1:
        elsewhere = dict.fromkeys(set(V2.rules_keys) - set(V1.rules_keys), OF_VERSION_2)
    check.keys(rules_, version.rules_keys, (), A_GAMES_RULES, "rules.", elsewhere)
    # An unknown key is reported but leaves the table readable, so the hands are still checked.
    before = len(check.problems)
    teams = _read_teams(rules_["teams"], check, version) if "teams" in rules_ else []
    settings = {key: rules_[key] for key in (*RULES_VALUES, HANDS) if key in rules_ and key in version.rules_keys}
    if version is V1:
        _hold_to_version_1(settings, check)
    return settings, tuple(teams), len(check.problems) == before


def _read_teams(value: object, check: _Checker, version: Version) -> list[rules.Team]:
    """The teams of partnership play that could be read (each problem reported)."""
    if not isinstance(value, list) or not value:
        if version is V1:
            message = _("must list the 2 teams of partnership play (leave it out for solo play), got %(value)s")
        else:
            message = _("must list the teams of partnership play (leave it out for solo play), got %(value)s")
        check.add("rules.teams", message % {"value": _show(value)})
        return []
    teams: list[rules.Team] = []
    for i, team in enumerate(value, start=1):
        field = f"rules.teams, team {i}"
        if not check.is_object(team, A_TEAM, field):
            continue
        check.keys(team, TEAM_KEYS, TEAM_KEYS, A_TEAM, f"{field}, ")
        name_ok = "name" not in team or check.name(team["name"], f"{field}, name", _("the team's name"))
        players = team.get("players")
        if "players" in team and not (isinstance(players, list) and all(_is_text(p) for p in players)):
            check.add(f"{field}, players", _("must be a list of the partners' names, got %(value)s") % {"value": _show(players)})
        elif name_ok and "name" in team and isinstance(players, list):
            teams.append(rules.Team(clean_name(team["name"]), tuple(clean_name(p) for p in players)))
    return teams


def _hold_to_version_1(settings: dict[str, Any], check: _Checker) -> None:
    """Report a target or minimum bid past version 1's limits, and leave it out of ``settings``."""
    target, min_bid = settings.get("target", 1), settings.get("min_bid", 1)
    if not (type(target) is int and rules.MIN_TARGET <= target <= V1_MAX_TARGET):
        message = _("target must be a whole number %(min)s-%(max)s, got %(value)s")
        check.add("rules.target", message % {"min": rules.MIN_TARGET, "max": V1_MAX_TARGET, "value": repr(target)})
        del settings["target"]
    if not (type(min_bid) is int and min_bid in V1_MIN_BIDS):
        check.add("rules.min_bid", _("min_bid must be 1 or 2, got %(value)s") % {"value": repr(min_bid)})
        del settings["min_bid"]


def _read_hands(
    hands: list[object], game: str | int | None, problems: list[Problem], version: Version
) -> tuple[list[rules.Hand], dict[int, set[str | None]]]:
    """The hands as the engine takes them, and where shape problems were found (hand -> fields).

    A hand with shape problems still goes to the engine (with what could be read) so
    that hand numbers, dealers and totals of the later hands stay right and their
    problems are found too.
    """
    inputs = []
    skip: dict[int, set[str | None]] = {}
    required, allowed = version.hand_required_set, version.hand_key_set
    v1 = version is V1
    if v1:
        elsewhere: dict[str, str | Promise] = {"points": OF_VERSION_2}
    else:
        elsewhere = dict.fromkeys(V1_POINTS, IN_POINTS)
    for number, hand in enumerate(hands, start=1):
        if (  # Most hands are well formed: their keys checked at once, without a checker (as below when one is not).
            type(hand) is dict  # Not an _Object, which gave a key twice.
            and required <= hand.keys() <= allowed
            and "bids" not in hand
            and ("dealer" not in hand or _is_text(hand["dealer"]))
            and (v1 or type(hand["points"]) is dict)
        ):
            points = {key: hand[key] for key in V1_POINTS} if v1 else hand["points"]
            inputs.append(rules.Hand(pitcher=hand["pitcher"], bid=hand["bid"], points=points, dealer=hand.get("dealer")))
            continue
        read, fields = _read_hand(hand, _Checker(problems, game=game, hand=number), version, elsewhere)
        inputs.append(read)
        if fields:
            skip[number] = fields
    return inputs, skip


# The engine's problems with a hand that is not an object: each is said already, as that hand's.
NOT_A_HAND = frozenset({"pitcher", "bid", "points", *V1_POINTS, "dealer", "bids"})


def _read_hand(
    hand: object, check: _Checker, version: Version, elsewhere: Mapping[str, str | Promise]
) -> tuple[rules.Hand, set[str | None]]:
    """A hand that is not plainly well formed: what could be read of it, for the engine, and where problems were
    found (each reported)."""
    if not check.is_object(hand, A_HAND):
        return rules.Hand(pitcher=None, bid=None, points={}), set(NOT_A_HAND)  # type: ignore[arg-type]
    assert isinstance(hand, dict)
    check.keys(hand, version.hand_keys, version.hand_required, A_HAND, elsewhere=elsewhere)
    dealer = hand.get("dealer")
    if "dealer" in hand and not _is_text(dealer):
        message = _("must be a seated player's name (leave it out when the deal passes to the left), got %(value)s")
        check.add("dealer", message % {"value": _show(dealer)})
        dealer = None
    bids = hand.get("bids")
    if "bids" in hand:
        bids = _read_bids(bids, check)
    if version is V1:
        given: object = {key: hand.get(key) for key in V1_POINTS}
    else:
        given = hand.get("points", {})
        if "points" in hand and check.is_object(given, _("a hand's points"), "points"):
            for key in getattr(given, "duplicates", ()):
                check.add(f"points.{key}", _('the key "%(key)s" is given more than once') % {"key": key})
    read = rules.Hand(
        pitcher=hand.get("pitcher"),  # type: ignore[arg-type]  # The engine checks names and numbers.
        bid=hand.get("bid"),  # type: ignore[arg-type]
        points=given,  # type: ignore[arg-type]
        dealer=dealer,
        bids=bids,
    )
    return read, check.fields


def _read_bids(value: object, check: _Checker) -> rules.Bids | None:
    if isinstance(value, list) and all(isinstance(p, list) and len(p) == 2 for p in value):
        return tuple((name, bid) for name, bid in value)  # The engine checks the names and bids.
    message = _('must be the auction as [name, bid or null] pairs, like [["Bob", 2], ["Cat", null]], got %(value)s')
    check.add("bids", message % {"value": _show(value)})
    return None
