"""The benchmark with its budgets (BENCHMARKS.md): ``make bench``, or ``.venv/bin/python bench/run.py [--games N]``.

Seeds a league of 10,000 finished games (about 250,000 hands) through the
history import, then measures on the whole Django stack (middleware, sessions,
templates; DEBUG off), as medians over repeated runs in this one process, each
also as a ratio to a trivial view: ``/healthz``, or for recording a hand (a
signed-in POST) a signed-in trivial POST, run in turns with it. It measures
recording a hand, the unchanged live-score poll, a long game's page, the
standings, exporting to JSON and importing it back, and page weight. Then the
capacity run against ``make prod`` (bench/capacity.py) and the phone in Chromium
(bench/browser.py).

Everything it makes is under bench/out/ (git-ignored) and a PostgreSQL database
``pitch_bench``. Not part of the test suite: it takes a quarter of an hour.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import time
import tracemalloc
import uuid
from pathlib import Path
from urllib.parse import urlencode

import browser  # This script's folder is on the path: bench/browser.py, the phone in Chromium.
import capacity  # bench/capacity.py, many tables against make prod.

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-" + "x9QmZ4vB8nL1pR6tY3wE5uI0oA" * 2,
    "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
    # Loopback is plain HTTP: the HTTPS-only switches are off, everything else is production.
    "SECURE_SSL_REDIRECT": "false",
    "SECURE_COOKIES": "false",
    "SECURE_HSTS_SECONDS": "0",
    "COMPRESS_HTML": "true",  # As make prod serves it: no proxy in front on loopback.
    "LOG_LEVEL": "WARNING",
}
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
BUDGETS: list[dict] = []


def setup_django(database_url: str) -> None:
    os.environ.update(PRODUCTION_ENV, DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="pitchleague.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# Seeding --------------------------------------------------------------------------------------


def generated_history(games: int, seed: int = 6, variant: str = "4-point") -> tuple[str, int]:
    """A history document (version 2) of finished games, played out with random hands; the rules engine says where
    each ends.

    The 4-point games: 3 or 4 players or two teams of two, to 11, every point to any side. The bigger variants
    (``variant``): 4 to 6 players or any team shape, to the variant's target, the pitcher's side taking more than
    its share (at random, a 10-point game to 52 would seldom end)."""
    from scores.engine import rules

    rng = random.Random(seed)
    documents, hands_total = [], 0
    played_by = rules.Rules(variant=variant, target=11) if variant == rules.DEFAULT_VARIANT else rules.Rules(variant=variant)
    small = variant == rules.DEFAULT_VARIANT
    for number in range(games):
        shape = None
        if rng.random() < 0.3:
            shape = (2, 2) if small else rng.choice(rules.TEAM_SHAPES)
        seats = rng.sample(NAMES, shape[0] * shape[1] if shape else rng.choice([3, 4] if small else [4, 5, 6]))
        teams = ()
        if shape:
            names = ("North", "East", "South")[: shape[0]]
            teams = tuple(rules.Team(name, players) for name, players in zip(names, rules.partners(seats, shape[0]), strict=True))
        table = rules.Table(seats=tuple(seats), rules=played_by, teams=teams)
        sides = list(table.sides)
        hands = []
        for _ in range(150 if small else 400):
            pitcher = rng.choice(seats)
            if small:
                bid = rng.choice([2, 2, 3, 3, 4])
                points = {key: rng.choice([*sides, None] if rules.CATALOGUE[key].optional else sides) for key in played_by.points}
            else:
                bid = rng.choice(played_by.bids[:3])
                own = table.side(pitcher)
                points = {key: own if rng.random() < 0.5 else rng.choice([*sides, None]) for key in played_by.points}
            hands.append(rules.Hand(pitcher=pitcher, bid=bid, points=points))
        try:
            rules.replay(table, hands)
        except rules.RulesError as error:  # "the game was already over": keep the hands up to the winning one.
            hands = hands[: min(p.hand for p in error.problems if p.hand) - 1]
        if rules.replay(table, hands).winner is None:
            continue
        hands_total += len(hands)
        day = f"20{16 + number // 2000:02d}-{1 + number // 170 % 12:02d}-{1 + number % 28:02d}"
        game: dict = {"id": f"g{number:05d}", "played_on": day, "seats": seats, "rules": {"variant": variant, "target": played_by.target}}
        if teams:
            game["rules"]["teams"] = [{"name": t.name, "players": list(t.players)} for t in teams]
        game["hands"] = [{"pitcher": h.pitcher, "bid": h.bid, "points": dict(h.points)} for h in hands]
        documents.append(game)
    document = {"format": "pitch-history", "version": 2, "league": {"name": "Bench"}, "games": documents}
    return json.dumps(document), hands_total


# Timing ---------------------------------------------------------------------------------------


def median_ms(action, repeat: int, warmup: int = 3) -> float:
    for _ in range(warmup):
        action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def paired_ms(action, trivial, repeat: int, warmup: int = 3) -> tuple[float, float]:
    """Medians of ``action`` and of its trivial view, run in turns: a busy moment of a shared machine slows both."""
    for _ in range(warmup):
        action()
        trivial()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for timed, run in zip(times, (action, trivial), strict=True):
            start = time.perf_counter()
            run()
            timed.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def budget(name: str, measured: str, limit: str, ok: bool | None) -> None:
    BUDGETS.append({"what": name, "measured": measured, "budget": limit, "pass": ok})
    print(f"  {name}: {measured}  (budget {limit}: {'-' if ok is None else 'PASS' if ok else 'FAIL'})", flush=True)


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6))


# Kept whole (C901, PLR0915): the command line, one branch a part of the benchmark, read top to bottom.
def main() -> None:  # noqa: C901, PLR0915
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=None, help="finished games in the league (default 10,000; 100,000 with --standings-only)"
    )
    parser.add_argument("--repeat", type=int, default=60, help="runs per timed measurement (median)")
    parser.add_argument("--no-load", action="store_true", help="skip the capacity run")
    parser.add_argument("--capacity", action="store_true", help="only the capacity run: tables against make prod (bench/capacity.py)")
    parser.add_argument(
        "--steps", default=",".join(map(str, capacity.STEPS)), help="the capacity run's numbers of tables, rising (comma-separated)"
    )
    parser.add_argument("--window", type=float, default=60, help="seconds measured at each step of the capacity run, once settled")
    parser.add_argument(
        "--failover",
        action="store_true",
        help="only the two-server run: two make prod servers behind HAProxy, --tables tables, one server killed partway",
    )
    parser.add_argument("--tables", type=int, default=100, help="with --failover: the tables played across the two servers")
    parser.add_argument("--sqlite", action="store_true", help="the capacity run on SQLite even when PostgreSQL answers")
    parser.add_argument("--import-only", action="store_true", help="only the import: its rate, and /healthz during a 5 MB upload")
    parser.add_argument(
        "--variant",
        choices=["4-point", "10-point"],
        help="with --import-only: only this variant's import rate (default both: 4-point, the budget, then 10-point, reported)",
    )
    parser.add_argument("--browser-only", action="store_true", help="only the browser part: a phone in Chromium (bench/browser.py)")
    parser.add_argument("--no-browser", action="store_true", help="skip the browser part")
    parser.add_argument(
        "--peer", type=Path, help="the browser part measures this static scorekeeper beside the app: a checkout of it (its index.html)"
    )
    parser.add_argument(
        "--trace", action="store_true", help="the browser part also traces a few saves (DevTools Tracing) and says where their time goes"
    )
    parser.add_argument(
        "--standings-only",
        action="store_true",
        help="only the standings at scale: --games games (100,000) on SQLite, then on PostgreSQL when it answers",
    )
    parser.add_argument(
        "--standings-on",
        choices=["both", "sqlite", "postgresql"],
        default="both",
        help="with --standings-only: the databases to measure (both: SQLite, and PostgreSQL when it answers)",
    )
    parser.add_argument(
        "--standings-database",
        default=STANDINGS_DATABASE,
        help=f"with --standings-only: the PostgreSQL database to make anew (default {STANDINGS_DATABASE})",
    )
    parser.add_argument("--database", help=argparse.SUPPRESS)  # --standings-only on PostgreSQL, in a process of its own.
    args = parser.parse_args()
    if args.games is None:
        args.games = STANDINGS_GAMES if args.standings_only else 10_000
    try:
        steps = [int(step) for step in args.steps.split(",")]
    except ValueError:
        parser.error(f"--steps: numbers of tables separated by commas, such as 25,50,100 (not {args.steps!r})")
    if not steps or steps != sorted(set(steps)) or steps[0] < 1:
        parser.error(f"--steps: rising numbers of tables, each at least 1 (not {args.steps!r})")
    OUT.mkdir(parents=True, exist_ok=True)
    line = ""
    if args.standings_only:
        standings_only(args)
        return
    if args.failover:
        finish(capacity.failover(OUT, budget, PRODUCTION_ENV, tables=args.tables))
        return
    if args.browser_only or args.capacity:
        if args.capacity:
            line = capacity.run(OUT, budget, PRODUCTION_ENV, steps=steps, window=args.window, sqlite=args.sqlite)
        else:
            browser.run(OUT, budget, PRODUCTION_ENV, peer=args.peer, trace=args.trace)
        finish(line)
        return
    database = OUT / "bench.sqlite3"
    for path in OUT.glob("bench.sqlite3*"):
        path.unlink()
    setup_django(f"sqlite:///{database}")
    if args.import_only:
        import_rate(args)
        upload_run()
        finish(line)
        return
    in_process(args)
    if not args.no_load:
        line = capacity.run(OUT, budget, PRODUCTION_ENV, steps=steps, window=args.window, sqlite=args.sqlite)
    if not args.no_browser:
        browser.run(OUT, budget, PRODUCTION_ENV, peer=args.peer, trace=args.trace)
    finish(line)


# Kept whole (PLR0915): the in-process budgets on one seeded league, measured one after the other as the table lists them.
def in_process(args) -> None:  # noqa: PLR0915
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.http import HttpResponse
    from django.test import Client
    from django.urls import reverse

    from scores.engine import rules
    from scores.history import export as history_export
    from scores.history import services
    from scores.leagues.models import League
    from scores.table import services as table_services
    from scores.table.models import Game, Hand

    # The test client on the real settings (DEBUG stays off), without setup_test_environment(): its template
    # instrumentation (a signal and a copy of the context per template rendered) is not what a server runs.
    _add_signed_in_trivial_view()
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-password-long")

    league, games, hands = seed_league(args, user)

    # A server process does not hold the seeding's objects: keep them out of the garbage collector's way.
    gc.collect()
    gc.freeze()

    client = Client()
    client.force_login(user)
    htmx = {"HTTP_HX_REQUEST": "true"}
    form = "application/x-www-form-urlencoded"  # As htmx and browsers post a form (the test client's default is multipart).
    healthz = lambda: client.get("/healthz")  # noqa: E731
    # A hand is an authenticated POST: the session and the user are read and the login is checked before any of
    # its own work, which /healthz never does. Its fair trivial view is a POST that does only that (bench-only URL).
    signed_in = lambda: client.post("/bench-trivial/", "key=x", content_type=form)  # noqa: E731
    trivial = median_ms(healthz, args.repeat)
    RESULTS["trivial_ms"] = round(trivial, 2)
    print(f"== on the stack in this process (medians of {args.repeat}); trivial view /healthz: {trivial:.2f} ms", flush=True)
    trivial_post = median_ms(signed_in, args.repeat)
    RESULTS["trivial_signed_in_ms"] = round(trivial_post, 2)
    print(f"  trivial signed-in POST (session, user, login_required, require_POST, CSRF middleware): {trivial_post:.2f} ms", flush=True)

    # Recording a hand: the htmx POST and its response, on a game 20 hands in, as at a table.
    game = table_services.start_game(
        league=league, seats=["Ann", "Bob", "Cat", "Dan"], code="live", rules=rules.Rules(target=rules.MAX_TARGET)
    )
    rotation = ["Ann", "Bob", "Cat", "Dan"]
    recorded = [0]

    def post_hand() -> HttpResponse:
        # The pitcher is set back (-2) and the next seat takes Low (+1): totals drift down, the game never ends.
        # Posted as the hand form does: the taps and its hidden fields, the hand's number and a fresh key.
        i = recorded[0]
        recorded[0] += 1
        pitcher, other = rotation[i % 4], rotation[(i + 1) % 4]
        data = {"pitcher": pitcher, "bid": 2, "high": pitcher, "low": other, "jack": "-", "game": "-", "key": str(uuid.uuid4())}
        data["number"] = i + 1
        response = client.post(reverse("scores:hand_create", args=["bench", game.pk]), urlencode(data), content_type=form, **htmx)
        assert response.status_code == 200 and b"alert-danger" not in response.content, response.content[:300]
        return response

    for _ in range(20):
        post_hand()
    saved = [None]
    record, baseline = paired_ms(lambda: saved.__setitem__(0, post_hand()), signed_in, args.repeat)
    budget(
        "Recording a hand (htmx POST + response)",
        f"{record:.2f} ms = {record / baseline:.2f}x the trivial signed-in POST ({baseline:.2f} ms, in turns);"
        f" {record / trivial:.1f}x /healthz",
        "< 10x trivial",
        record / baseline < 10,
    )

    # The live score poll when nothing changed: 304 on the ETag.
    game.refresh_from_db()
    watch = reverse("scores:watch", args=[game.share_token])
    etag = client.get(watch, **htmx)["ETag"]

    def poll() -> None:
        assert client.get(watch, HTTP_IF_NONE_MATCH=etag, **htmx).status_code == 304

    unchanged, baseline = paired_ms(poll, healthz, args.repeat)
    budget(
        "Live score poll, nothing changed (304)",
        f"{unchanged:.2f} ms = {unchanged / baseline:.2f}x /healthz ({baseline:.2f} ms, in turns)",
        "<= 1.5x trivial",
        unchanged / baseline <= 1.5,
    )

    # The game page of a long game: the live game, now 20 + warm-up + repeat hands long.
    long_game = game
    page_url = long_game.get_absolute_url()
    length = Hand.objects.filter(game=long_game).count()
    page_ms = median_ms(lambda: client.get(page_url), args.repeat)
    budget(f"Game page of a {length}-hand game", f"{page_ms:.1f} ms = {page_ms / trivial:.2f}x trivial", "(reported)", None)

    # Standings of the whole league: the league page, and the standings fragment htmx swaps in.
    league_url = reverse("scores:league_detail", args=["bench"])
    full = median_ms(lambda: client.get(league_url), max(5, args.repeat // 3), warmup=1)
    budget(f"Standings page, {games:,} games (full league page)", f"{full:.0f} ms = {full / trivial:.1f}x trivial", "< 200 ms", full < 200)
    partial = median_ms(lambda: client.get(league_url, {"sort": "wins"}, **htmx), max(5, args.repeat // 3), warmup=1)
    budget(
        f"Standings table alone (htmx re-sort), {games:,} games",
        f"{partial:.0f} ms = {partial / trivial:.1f}x trivial",
        "< 200 ms",
        partial < 200,
    )

    # Page weight: the game page on first load (HTML and every asset it loads), and each saved hand's response.
    first = client.get(page_url)
    html = first.content
    assets = re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)
    asset_bytes = 0
    for url in assets:
        path = Path(settings.STATIC_ROOT) / url.decode().removeprefix("/static/")
        # What WhiteNoise sends: the brotli copy to a browser that takes it (phones do), else the gzip one.
        sent = next(each for each in (path.with_name(path.name + ".br"), path.with_name(path.name + ".gz"), path) if each.exists())
        asset_bytes += sent.stat().st_size
    first_load = gz(html) + asset_bytes
    detail = f"{first_load / 1024:.1f} KB as sent (HTML gzip {gz(html) / 1024:.1f} KB of {len(html) / 1024:.0f} KB"
    detail += f", {len(assets)} assets {asset_bytes / 1024:.1f} KB)"
    budget(f"Game page first load, {length} hands", detail, "< 80 KB", first_load < 80 * 1024)
    # A saved hand is its answer, which adds the hand to the score chart (a reload only when it asks: "scores-changed").
    answer = saved[0]
    chart = client.get(page_url, {"part": "chart"}, **htmx).content if "scores-changed" in answer["HX-Trigger"] else b""
    per_hand = gz(answer.content) + (gz(chart) if chart else 0)
    budget(
        "Bytes per saved hand (htmx answer, with the chart's new segments, + a chart reload if it asks for one)",
        f"{per_hand / 1024:.1f} KB gzip (answer {gz(answer.content) / 1024:.1f} KB of {len(answer.content) / 1024:.1f} KB raw,"
        f" chart reload {gz(chart) / 1024 if chart else 0:.1f} KB)",
        "<= 6 KB",
        per_hand <= 6 * 1024,
    )

    # Export to JSON: hands per second over the whole league, and peak memory at two league sizes.
    def export(queryset) -> int:
        return sum(len(chunk) for chunk in history_export.export_json(queryset, league_name="Bench"))

    finished = Game.objects.filter(league=league).finished()
    start = time.perf_counter()
    size = export(finished)
    seconds = time.perf_counter() - start
    rate = hands / seconds
    budget(
        f"Export to JSON, {games:,} games",
        f"{rate:,.0f} hands/s ({seconds:.1f} s, {size / 1e6:.0f} MB)",
        ">= 50,000 hands/s",
        rate >= 50_000,
    )
    peaks = []
    quarter = list(finished.order_by("pk").values_list("pk", flat=True)[: games // 4])
    for queryset in (Game.objects.filter(pk__in=quarter), finished):
        tracemalloc.start()
        export(queryset)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    flat = peaks[1] < 1.5 * peaks[0]
    budget(
        "Export peak memory, 1/4 league vs whole league",
        f"{peaks[0] / 2**20:.1f} MB vs {peaks[1] / 2**20:.1f} MB",
        "flat (whole < 1.5x quarter)",
        flat,
    )

    # Import it back into an empty league.
    document = "".join(history_export.export_json(finished, league_name="Bench"))
    copy = League.objects.create(name="Copy", slug="copy")
    start = time.perf_counter()
    services.import_history(league=copy, source=document)
    seconds = time.perf_counter() - start
    budget(f"Import the export back, {games:,} games", f"{hands / seconds:,.0f} hands/s ({seconds:.0f} s)", "(reported)", None)
    connection.close()


STANDINGS_GAMES = 100_000
STANDINGS_DATABASE = "pitch_bench_standings"
VARIANT, VARIANT_GAMES = "10-point", 200  # Beside the 4-point games, for the variant filter.
SEASON_YEARS = 5  # A season every five years of the generated games (they span 2016 on, 2,000 games a year).


def standings_only(args) -> None:
    """The standings at scale (``--standings-on``): PostgreSQL in a process of its own (Django's database is the
    process's) when a server answers, which writes its figures for this one to add, then SQLite in this process."""
    figures = OUT / "standings-postgresql.json"
    if args.database:
        setup_django(args.database)
        standings_run(args)
        figures.write_text(json.dumps(BUDGETS))
        return
    for path in OUT.glob("standings.sqlite3*"):
        path.unlink()
    figures.unlink(missing_ok=True)
    postgres = None if args.standings_on == "sqlite" else standings_database(args.standings_database)
    if postgres:
        # PostgreSQL first, in its own process, so this one's Django is set up once, for SQLite.
        command = [sys.executable, __file__, "--standings-only", "--games", str(args.games), "--repeat", str(args.repeat)]
        subprocess.run([*command, "--database", postgres], check=True)
        BUDGETS.extend(json.loads(figures.read_text()))
    if args.standings_on != "postgresql":
        setup_django(f"sqlite:///{OUT / 'standings.sqlite3'}")
        standings_run(args)
    finish("")


def standings_database(name: str) -> str | None:
    """A new PostgreSQL database for the standings at scale, or None when no server answers on 127.0.0.1."""
    import psycopg

    try:
        with psycopg.connect(f"{capacity.PG_SERVER}/postgres", autocommit=True, connect_timeout=3) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            connection.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as error:
        print(f"  no PostgreSQL on 127.0.0.1 ({str(error).strip().splitlines()[-1]}): SQLite only", flush=True)
        return None
    return f"{capacity.PG_SERVER}/{name}"


def standings_run(args) -> None:
    """A league of ``args.games`` games with a season every few years; the league page (the current season), and the
    standings table alone (the htmx re-sort) of all time, of a past season and of one kind of game, with their queries."""
    import datetime

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from scores.history import services
    from scores.standings import services as standings_services
    from scores.standings.models import Season

    vendor = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[connection.vendor]
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-password-long")
    league, games, _hands = seed_league(args, user, budgeted=vendor == "SQLite")
    last_year = 2016 + (games - 1) // 2000
    # A few games of another variant, on the last day, so the standings offer the variant filter; rated from that day on.
    others = json.loads(generated_history(VARIANT_GAMES, seed=7, variant=VARIANT)[0])
    for game in others["games"]:
        game.update(id=f"v{game['id']}", played_on=f"{last_year}-12-28")
    services.import_history(league=league, source=json.dumps(others))
    start = time.perf_counter()
    for year in range(2016, last_year + 1, SEASON_YEARS):
        standings_services.start_season(league=league, name=str(year), starts_on=datetime.date(year, 1, 1), by=user)
    seasons = Season.objects.filter(league=league).count()
    print(f"  {seasons} seasons started in {time.perf_counter() - start:.1f} s", flush=True)
    past = Season.objects.filter(league=league).order_by("starts_on")[seasons // 2]
    gc.collect()
    gc.freeze()
    client = Client()
    client.force_login(user)
    htmx = {"HTTP_HX_REQUEST": "true"}
    url = reverse("scores:league_detail", args=["bench"])
    repeat = max(5, args.repeat // 3)
    for what, params, headers, limit in (
        ("league page, the current season", {}, {}, 200),
        ("standings table alone, all time", {"season": "all", "sort": "wins"}, htmx, 200),
        (f"standings table alone, season {past.name}", {"season": past.pk, "sort": "wins"}, htmx, 200),
        ("standings table alone, all time, solo games only", {"season": "all", "mode": "solo"}, htmx, 200),
        (f"standings table alone, season {past.name}, solo games only", {"season": past.pk, "mode": "solo"}, htmx, 200),
        (f"standings table alone, all time, {VARIANT} games only", {"season": "all", "variant": VARIANT}, htmx, None),
    ):
        queries: list[str] = []

        def counted(execute, sql, *rest, queries=queries):
            queries.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(counted):
            assert client.get(url, params, **headers).status_code == 200
        ms = median_ms(lambda params=params, headers=headers: client.get(url, params, **headers), repeat, warmup=1)
        budget(
            f"Standings at {games:,} games, {vendor}: {what}",
            f"{ms:.0f} ms, {len(queries)} queries (the session's and the user's included)",
            f"< {limit} ms" if limit else "(reported)",
            ms < limit if limit else None,
        )
    connection.close()
    if connection.vendor == "postgresql":
        connection.close_pool()  # Else the process waits for the pool's threads to time out as it ends.


def seed_league(args, user, variant: str = "4-point", *, budgeted: bool = True) -> tuple:
    """A bench league of ``variant`` games, through the history import; its rate is reported (for 4-point games, a
    budget on SQLite, unless not ``budgeted``)."""
    from django.db import connection

    from scores.history import services
    from scores.leagues.models import League, Membership, Role
    from scores.table.models import Game

    print(f"== seeding a league of {args.games:,} finished {variant} games through the history import", flush=True)
    start = time.perf_counter()
    document, hands = generated_history(args.games, variant=variant)
    generated = time.perf_counter() - start
    slug = "bench" if variant == "4-point" else f"bench-{variant}"
    league = League.objects.create(name=f"Bench {variant}", slug=slug)
    Membership.objects.create(league=league, user=user, role=Role.OWNER)
    start = time.perf_counter()
    services.import_history(league=league, source=document)
    seconds = time.perf_counter() - start
    games = Game.objects.filter(league=league).count()
    with connection.cursor() as cursor:  # As a database that has run a while: the log folded in, statistics gathered.
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)" if connection.vendor == "sqlite" else "SELECT 1")
        cursor.execute("ANALYZE")
    print(f"  generated {games:,} games, {hands:,} hands in {generated:.0f} s; imported in {seconds:.0f} s", flush=True)
    if variant == "4-point":
        budget(
            f"Import (seeding): generated document, {games:,} games",
            f"{hands / seconds:,.0f} hands/s ({seconds:.0f} s)",
            ">= 30,000 hands/s" if budgeted else "(reported)",
            hands / seconds >= 30_000 if budgeted else None,
        )
        RESULTS["league"] = {"games": games, "hands": hands, "import_seconds": round(seconds, 1)}
    else:
        budget(f"Import of {variant} games: generated document, {games:,} games", f"{hands / seconds:,.0f} hands/s", "(reported)", None)
        RESULTS[f"league_{variant}"] = {"games": games, "hands": hands, "import_seconds": round(seconds, 1)}
    return league, games, hands


def import_rate(args) -> None:
    """The import's rate for 4-point games (the budget) and for 10-point games (reported), each into its own league."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="bench-password-long")
    for variant in [args.variant] if args.variant else ["4-point", "10-point"]:
        seed_league(args, user, variant=variant)


UPLOAD_MB = 5


# Kept whole (C901, PLR0915): the upload and the /healthz probes beside it share one server, its session and its clock.
def upload_run() -> None:  # noqa: C901, PLR0915
    """A 5 MB history file uploaded to the production stack (gunicorn, 4 workers, and the background worker as `make prod` runs it),
    with /healthz asked every 20 ms from the upload until the import is done: its answers must stay fast."""
    import http.cookiejar
    import threading
    import urllib.request

    print(f"== /healthz while a {UPLOAD_MB} MB file is uploaded and imported (gunicorn 4 workers + db_worker, SQLite)", flush=True)
    games = 100
    while len(document := generated_history(games, seed=11)[0]) < UPLOAD_MB * 2**20:
        games = int(games * UPLOAD_MB * 2**20 / len(document)) + 10
    body = document.encode()
    url = f"sqlite:///{OUT / 'upload.sqlite3'}"
    for path in OUT.glob("upload.sqlite3*"):
        path.unlink()
    env = {**os.environ, **PRODUCTION_ENV, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "pitchleague.settings"}
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    prepare = (
        "import django; django.setup()\n"
        "from django.contrib.auth import get_user_model\n"
        "from scores.models import League, Membership, Role\n"
        "user = get_user_model().objects.create_user('uploader', password='upload-password-long')\n"
        "Membership.objects.create(league=League.objects.create(name='Upload', slug='upload'), user=user, role=Role.OWNER)\n"
    )
    subprocess.run([python, "-c", prepare], cwd=ROOT, env=env, check=True)
    port = "8766"
    log = open(OUT / "upload-server.log", "w")  # noqa: SIM115  # Open while the servers run.
    gunicorn = [str(ROOT / ".venv" / "bin" / "gunicorn"), "pitchleague.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "4"]
    servers = [
        subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        for command in (gunicorn, ["nice", "-n", "10", python, "manage.py", "db_worker", "--no-reload", "--interval", "0.2"])
    ]
    base = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def csrf() -> str:
        return next(cookie.value for cookie in jar if cookie.name == "csrftoken")

    def post(path: str, data: bytes, content_type: str) -> str:
        request = urllib.request.Request(base + path, data=data, headers={"Content-Type": content_type, "Referer": base + path})
        with opener.open(request) as response:
            return response.read().decode()

    samples: list[tuple[float, float]] = []
    stop = threading.Event()

    def poll_healthz() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            with urllib.request.urlopen(base + "/healthz") as response:
                response.read()
            samples.append((start, (time.perf_counter() - start) * 1000))
            time.sleep(0.02)

    try:
        for _ in range(60):
            if subprocess.run(["curl", "-sf", f"{base}/healthz"], capture_output=True).returncode == 0:
                break
            time.sleep(0.5)
        opener.open(base + "/accounts/login/").read()
        form = urlencode({"username": "uploader", "password": "upload-password-long", "csrfmiddlewaretoken": csrf()})
        post("/accounts/login/", form.encode(), "application/x-www-form-urlencoded")
        opener.open(base + "/leagues/upload/import/").read()
        boundary = uuid.uuid4().hex
        multipart = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{csrf()}\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="history.json"\r\n'
                "Content-Type: application/json\r\n\r\n"
            ).encode()
            + body
            + f"\r\n--{boundary}--\r\n".encode()
        )
        poller = threading.Thread(target=poll_healthz)
        poller.start()
        time.sleep(10)  # The same polling with nothing imported: what this machine's load alone does to /healthz.
        baseline = sorted(ms for _start, ms in samples)
        samples.clear()
        began = time.perf_counter()
        page = post("/leagues/upload/import/", multipart, f"multipart/form-data; boundary={boundary}")
        answered = time.perf_counter() - began
        job = re.search(r'hx-get="([^"]+)"', page).group(1)
        while "<progress" in (page := opener.open(base + job).read().decode()):
            time.sleep(0.2)
        done = time.perf_counter() - began
        stop.set()
        poller.join()
    finally:
        stop.set()
        for server in servers:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        log.close()
    imported = re.search(r"Imported ([\d,]+) games", page)
    latencies = sorted(ms for _start, ms in samples)
    p50, p99, worst = statistics.median(latencies), latencies[int(len(latencies) * 0.99) - 1], latencies[-1]
    outcome = imported.group(0) if imported else "NOT imported"
    print(f"  {len(body) / 2**20:.1f} MB, {games:,} games: upload answered in {answered:.2f} s, done after {done:.1f} s ({outcome})")
    quiet = f"p50 {statistics.median(baseline):.0f} ms, p99 {baseline[int(len(baseline) * 0.99) - 1]:.0f} ms, max {baseline[-1]:.0f} ms"
    budget(
        f"/healthz during a {len(body) / 2**20:.1f} MB import ({len(latencies)} polls over {done:.0f} s)",
        f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {worst:.0f} ms (10 s before it: {quiet}); the upload's answer {answered * 1000:.0f} ms",
        "max < 100 ms, imported",
        worst < 100 and imported is not None,
    )


def _add_signed_in_trivial_view() -> None:
    """/bench-trivial/: a POST behind the same login as a hand, answering a few bytes; added here, never in the app."""
    from django.contrib.auth.decorators import login_required
    from django.http import HttpResponse
    from django.urls import clear_url_caches, path
    from django.views.decorators.http import require_POST

    from pitchleague import urls

    @login_required
    @require_POST
    def trivial(request):
        return HttpResponse(request.user.get_username())

    urls.urlpatterns.insert(0, path("bench-trivial/", trivial))
    clear_url_caches()


RESULTS: dict = {}


def finish(capacity_line: str) -> None:
    """Writes the results; the capacity run's line, if it ran, is the last printed. Fails if a budget did."""
    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")), "?"
    )
    RESULTS["machine"] = f"{platform.system()} {platform.release()}, {os.cpu_count()} cores ({cpu}), Python {platform.python_version()}"
    RESULTS["budgets"] = BUDGETS
    (OUT / "results.json").write_text(json.dumps(RESULTS, indent=2))
    lines = ["| What | Measured | Budget | Result |", "|---|---|---|---|"]
    for row in BUDGETS:
        verdict = "—" if row["pass"] is None else "pass" if row["pass"] else "**FAIL**"
        lines.append(f"| {row['what']} | {row['measured']} | {row['budget']} | {verdict} |")
    table = "\n".join(lines)
    (OUT / "results.md").write_text(f"Machine: {RESULTS['machine']}\n\n{table}\n")
    print("\n" + RESULTS["machine"] + "\n\n" + table)
    if capacity_line:
        print(capacity_line, flush=True)
    if any(row["pass"] is False for row in BUDGETS):
        sys.exit(1)


if __name__ == "__main__":
    main()
