"""The capacity run: ``bench/run.py --capacity``. How many tables one app server of `make prod` holds.

`make prod` is started on a port of its own (gunicorn with its workers, the background worker beside it), on
PostgreSQL when a server answers on 127.0.0.1 (the database ``pitch_bench``, made anew) and on SQLite otherwise.
Each table is a signed-in scorer and three phones following the game:

- the scorer records a hand every 20 s through the hand form, posted as htmx posts it (the form's fields, its CSRF
  token, the hand's number and key as the last answer left them), then fetches the score chart when the answer's
  event asks for it (the first hand, a winning one; the other answers bring the chart's new segments); when a hand
  wins the game, the next turn is a tap on Rematch and the new game's page;
- each phone opens the game's watch link and polls it as the page does: 3 s after each answer (htmx's polling
  starts again when it swaps), with the ETag of the last answer, as the browser's cache revalidates it.

The tables' saves are spread evenly over the 20 s. The number of tables rises in steps; new tables join over the
step's first 20 s, and its figures are taken over a window once they have settled in. The run stops at the first
step whose 95th percentile of saves passes 250 ms, or in which any request failed; the capacity is the step before.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import math
import os
import random
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from subprocess import PIPE
from urllib.parse import urlencode, urlsplit

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
PORT = 8147
PG_SERVER = "postgres://pitch:pitch@127.0.0.1:5432"
PG_DATABASE = os.environ.get("BENCH_DATABASE", "pitch_bench")  # Another name where two runs share a PostgreSQL server.
PHONES = 3
SAVE_EVERY = 20.0
POLL_EVERY = 3.0
SAVE_P95_LIMIT_MS = 250.0
STEPS = (25, 50, 100, 150, 200, 300, 400, 500, 600, 800, 1000)
SEATS = ("Ann", "Bob", "Cat", "Dan")
GOLDEN = (math.sqrt(5) - 1) / 2  # Table i's turn in the 20 s: i times this, modulo 1; any number of tables spreads evenly.
HTMX_FORM = {"HX-Request": "true", "HX-Target": "live", "Content-Type": "application/x-www-form-urlencoded"}
PREPARE = """
import json, sys
import django
django.setup()
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from scores.engine import rules
from scores.table import services as table_services
from scores.models import League, Membership, Role

tables = []
for i in range(int(sys.argv[1]), int(sys.argv[2])):
    # No password (hashing one costs a second of CPU); signed in below as a login signs in, with a session row.
    user = get_user_model().objects.create_user(f"scorer{i}")
    league = League.objects.create(name=f"Table {i}", slug=f"table-{i}")
    Membership.objects.create(league=league, user=user, role=Role.SCORER)
    game = table_services.start_game(league=league, seats=sys.argv[3].split(","), rules=rules.Rules())
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    tables.append({"game": game.get_absolute_url(), "cookie": {settings.SESSION_COOKIE_NAME: session}})
print(json.dumps(tables))
"""
# Each request's time in the app (gunicorn's, from reading it to the last byte written), beside the client's.
ACCESS_LOG_FORMAT = '%(t)s "%(r)s" %(s)s %(b)s %(M)s'
ACCESS_LINE = re.compile(r'^\[([^\]]+)\] "(\S+) (\S+) [^"]*" (\d+) \S+ (\d+)$')
COUNT_HANDS = "import django; django.setup(); from scores.models import Hand; print(Hand.objects.count())"


# The server and its database -------------------------------------------------------------------


def database_url(out: Path, sqlite: bool) -> tuple[str, str]:
    """PostgreSQL's ``pitch_bench``, made anew, when a server answers; else a new SQLite file. And which it is."""
    import psycopg

    if not sqlite:
        try:
            with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True, connect_timeout=3) as connection:
                version = connection.execute("SHOW server_version").fetchone()[0]
                connection.execute(f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
                connection.execute(f"CREATE DATABASE {PG_DATABASE}")
            return f"{PG_SERVER}/{PG_DATABASE}", f"PostgreSQL {version.split()[0]}"
        except psycopg.OperationalError as error:
            print(f"  no PostgreSQL on 127.0.0.1 ({str(error).strip().splitlines()[-1]}): SQLite instead", flush=True)
    for path in out.glob("capacity.sqlite3*"):
        path.unlink()
    return f"sqlite:///{out / 'capacity.sqlite3'}", "SQLite (WAL)"


def start_server(out: Path, url: str, port: int, secret_key: str, log_name: str = "capacity-server.log") -> subprocess.Popen:
    """`make prod` on ``port``, in a process group of its own (make, gunicorn and its workers, the background worker).
    Its secret key is the one the sessions are signed in with; its output goes to ``out / log_name``."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env.update(DATABASE_URL=url, SECRET_KEY=secret_key, GUNICORN_CMD_ARGS=f"--access-logformat '{ACCESS_LOG_FORMAT}'")
    with (out / log_name).open("w") as log:
        return subprocess.Popen(
            # The virtualenv is the one this script runs in, as it is (-o: not made again if the requirements are newer).
            ["make", "--no-print-directory", "-o", ".venv/.installed", "prod", f"PORT={port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _group(group: int) -> list[int]:
    """The processes of a process group."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and (read := _process_cpu(int(name))) and read[0] == group]


def stop_server(server: subprocess.Popen) -> None:
    """SIGTERM to the whole group (gunicorn finishes the requests it has), and wait until every process is gone."""
    signal_sent = signal.SIGTERM
    deadline = time.monotonic() + 30
    while _group(server.pid):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal_sent)
        server.poll()
        time.sleep(0.2)
        if time.monotonic() > deadline:
            signal_sent = signal.SIGKILL
    server.wait()


def wait_until_up(base: str, server: subprocess.Popen, out: Path, log_name: str = "capacity-server.log") -> None:
    import urllib.request

    deadline = time.monotonic() + 300  # The migrations of a new database come first.
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"make prod stopped ({server.returncode}); see {out / log_name}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"make prod did not answer /healthz in five minutes; see {out / log_name}")


def workers(log: Path) -> str:
    """What gunicorn says it runs, from its log: its kind of worker, how many and their threads."""
    text = log.read_text(errors="replace")
    kind = re.search(r"Using worker: (\w+)", text)
    threads = re.search(r"--threads (\d+)", text)
    count = text.count("Booting worker with pid")
    each = f" of {threads.group(1)} threads" if kind and kind.group(1) == "gthread" and threads else ""
    return f"gunicorn: {count} {kind.group(1) if kind else '?'} workers{each}"


def django_env(url: str, production_env: dict[str, str]) -> dict[str, str]:
    return {**os.environ, **production_env, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "pitchleague.settings"}


PYTHON = str(ROOT / ".venv" / "bin" / "python")


def manage_python(code: str, env: dict[str, str]) -> str:
    return subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout


async def new_tables(env: dict[str, str], first: int, end: int) -> list[dict]:
    """Tables ``first`` to ``end`` (each a league, a scorer signed in, a game), made while the others play on."""
    made = await asyncio.create_subprocess_exec(
        PYTHON, "-c", PREPARE, str(first), str(end), ",".join(SEATS), cwd=ROOT, env=env, stdout=PIPE
    )
    output, _ = await made.communicate()
    if made.returncode:
        raise SystemExit(f"making tables {first}-{end} failed ({made.returncode})")
    return json.loads(output)


# CPU, from /proc ---------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def _process_cpu(pid: int) -> tuple[int, float] | None:
    """(process group, CPU seconds) of a process, or None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[2]), (int(fields[11]) + int(fields[12])) / TICK


def _waited(pid: int) -> float:
    """Seconds the process's threads have been ready to run but waiting for a core (the scheduler's run delay)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        with contextlib.suppress(OSError, IndexError):  # The thread ended.
            total += int(task.read_text().split()[1])
    return total / 1e9


class AccessLog:
    """The server's access log, read on as it grows: (when, what, milliseconds in the app) for each request."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset = path, 0

    def read_on(self) -> list[tuple[float, str, int]]:
        with self.path.open("rb") as log:
            log.seek(self.offset)
            lines = log.read().decode(errors="replace").splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines.pop()  # Being written: read it next time.
        self.offset += sum(len(line.encode()) for line in lines)
        entries = []
        for line in lines:
            if match := ACCESS_LINE.match(line.strip()):
                when, method, path, status, ms = match.groups()
                what = "save" if method == "POST" and path.endswith("/hands/") else "chart" if "part=chart" in path else ""
                what = what or ("unchanged poll" if status == "304" else "")
                entries.append((datetime.strptime(when, "%d/%b/%Y:%H:%M:%S %z").timestamp(), what, int(ms)))
        return entries


@dataclass
class CpuReading:
    at: float
    wall: float
    load_generator: float
    load_generator_waited: float
    app: dict[int, float]
    app_waited: dict[int, float]
    database: dict[int, float]
    database_waited: dict[int, float]
    machine_busy: float
    load_average: str

    @staticmethod
    def take(group: int, database_pids: list[int]) -> CpuReading:
        app = {pid: read[1] for pid in _group(group) if (read := _process_cpu(pid))}
        database = {pid: read[1] for pid in database_pids if (read := _process_cpu(pid))}
        waited = ({pid: _waited(pid) for pid in app}, {pid: _waited(pid) for pid in database})
        cpu = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        busy = (sum(cpu[:8]) - cpu[3] - cpu[4]) / TICK  # All but idle and waiting for I/O; guest time is in user already.
        load_average = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        ours = os.getpid()
        return CpuReading(
            time.monotonic(), time.time(), time.process_time(), _waited(ours), app, waited[0], database, waited[1], busy, load_average
        )


def cores(before: CpuReading, after: CpuReading) -> dict[str, float]:
    """Cores used between two readings, by who used them (the database's: its backends serving this run)."""
    seconds = after.at - before.at

    def spent(start: dict[int, float], end: dict[int, float]) -> float:
        return sum(value - start.get(pid, 0.0) for pid, value in end.items())

    used = {
        "app": spent(before.app, after.app) / seconds,
        "database": spent(before.database, after.database) / seconds,
        "load generator": (after.load_generator - before.load_generator) / seconds,
        "machine": (after.machine_busy - before.machine_busy) / seconds,
        "app waiting": spent(before.app_waited, after.app_waited) / seconds,
        "database waiting": spent(before.database_waited, after.database_waited) / seconds,
        "load generator waiting": (after.load_generator_waited - before.load_generator_waited) / seconds,
    }
    used["everything else"] = max(0.0, used["machine"] - used["app"] - used["database"] - used["load generator"])
    return used


# The tables --------------------------------------------------------------------------------------


class _Page(HTMLParser):
    """What a phone's page holds for the next request: the form fields by id, the forms' actions, the links by id."""

    def __init__(self, html: bytes) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.forms: dict[str, str] = {}
        self.actions: list[str] = []
        self.links: dict[str, str] = {}
        self.feed(html.decode())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "input" and found.get("name") == "csrfmiddlewaretoken":
            self.fields.setdefault("csrfmiddlewaretoken", found.get("value", ""))
        elif tag == "input" and "id" in found:
            self.fields[found["id"]] = found.get("value", "")
        elif tag == "form" and "action" in found:
            self.actions.append(found["action"])
            if "id" in found:
                self.forms[found["id"]] = found["action"]
        elif tag == "a" and "id" in found:
            self.links[found["id"]] = found.get("href", "")


@dataclass
class Sample:
    kind: str
    start: float
    ms: float
    ok: bool

    @property
    def end(self) -> float:
        """When the answer's last byte came (the clock of ``start``)."""
        return self.start + self.ms / 1000


@dataclass
class Load:
    http: aiohttp.ClientSession
    base: str
    samples: list[Sample] = field(default_factory=list)
    errors: list[tuple[float, str]] = field(default_factory=list)
    late: list[tuple[float, float]] = field(default_factory=list)  # (slot, seconds late): the load generator keeping time.
    # (a save's answer, ms until a watching phone showed it): one entry per save and phone.
    shown: list[tuple[float, float]] = field(default_factory=list)
    stopping: bool = False
    keep_going: bool = False  # After an error a table goes on, as a phone does: its next save is the same hand and key.

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        cookies: dict[str, str],
        *,
        expect: tuple[int, ...] = (200,),
        refusal: bytes = b"",
        **options,
    ):
        """One request, timed to its last byte; a failed one is an error, recorded with what went wrong: an unexpected
        status, no answer, or an answer that holds ``refusal`` (a form that did not take what was posted)."""
        headers = {"Accept-Language": "en", **options.pop("headers", {})}
        if cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
        start = time.monotonic()
        try:
            async with self.http.request(method, self.base + path, headers=headers, allow_redirects=False, **options) as response:
                body = await response.read()
        except (aiohttp.ClientError, TimeoutError) as error:
            problem, response, body = f"{type(error).__name__} {error}", None, b""
        else:
            cookies.update({name: morsel.value for name, morsel in response.cookies.items()})
            problem = None if response.status in expect else f"status {response.status}"
            if problem is None and refusal and refusal in body:
                problem = "refused: " + body.split(refusal, 1)[1][:200].decode(errors="replace")
        sample = Sample(kind, start, (time.monotonic() - start) * 1000, problem is None)
        self.samples.append(sample)
        if problem is not None:
            self.errors.append((start, f"{kind}: {method} {path}: {problem}"))
            return None, b"", sample
        return response, body, sample


class Table:
    """A scorer and the phones following the game. Random legal hands; the rules engine decides when a game is won."""

    def __init__(self, load: Load, index: int, made: dict, joins: float, epoch: float) -> None:
        self.load, self.index, self.joins, self.epoch = load, index, joins, epoch
        self.rng = random.Random(index)
        self.cookies: dict[str, str] = dict(made["cookie"])
        self.game = made["game"]
        self.turn = (index * GOLDEN) % 1 * SAVE_EVERY
        self.fields: dict[str, str] = {}
        self.hand_form = self.rematch_form = self.watch = None
        self.unanswered: dict[str, str] | None = None
        self.answered: list[float] = []  # When each save's answer came: the phones time how soon they show it.

    async def play(self) -> None:
        await asyncio.sleep(max(0.0, self.joins - time.monotonic()))
        if not await self.open(self.game):
            return
        phones = [asyncio.create_task(self.phone(number)) for number in range(PHONES)]
        slot = self.epoch + self.turn + SAVE_EVERY * math.ceil((time.monotonic() + 1 - self.epoch - self.turn) / SAVE_EVERY)
        while not self.load.stopping:
            await asyncio.sleep(max(0.0, slot - time.monotonic()))
            if self.load.stopping:
                break
            self.load.late.append((slot, time.monotonic() - slot))
            if not await (self.save() if self.hand_form else self.rematch()) and not self.load.keep_going:
                break  # An error is recorded; this table stops (the step has failed).
            slot += SAVE_EVERY
        await asyncio.gather(*phones)

    def read(self, body: bytes) -> None:
        """The next hand's number and key (and on a whole page, the CSRF token, the forms, the watch link)."""
        page = _Page(body)
        self.fields.update(page.fields)
        rematch = next((action for action in page.actions if action.endswith("/rematch/")), None)
        if "hand" in page.forms or rematch:
            self.hand_form, self.rematch_form = page.forms.get("hand"), rematch
        if "watch-url" in page.links:
            self.watch = urlsplit(page.links["watch-url"]).path

    async def open(self, path: str) -> bool:
        response, body, _ = await self.load.request("game page", "GET", path, self.cookies)
        if response is not None:
            self.game = path
            self.read(body)
        return response is not None

    def next_hand(self) -> dict[str, str]:
        """A random hand, as the form posts it: its fields in order, with the page's CSRF token, number and key."""
        seats = list(SEATS)
        hand = {
            "pitcher": self.rng.choice(seats),
            "bid": str(self.rng.choice([2, 2, 3, 3, 4])),
            "high": self.rng.choice(seats),
            "low": self.rng.choice(seats),
            "jack": self.rng.choice([*seats, "-"]),
            "game": self.rng.choice([*seats, "-"]),
        }
        page = {"csrfmiddlewaretoken": self.fields["csrfmiddlewaretoken"], "number": self.fields["id_number"], "key": self.fields["id_key"]}
        return {**page, "auction": "", **hand}

    async def save(self) -> bool:
        data = self.unanswered or self.next_hand()  # A save that got no answer is sent again, the same hand and key.
        csrf = data["csrfmiddlewaretoken"]
        headers = {**HTMX_FORM, "HX-Trigger": "hand", "X-CSRFToken": csrf, **self._from_page()}
        request = self.load.request(
            "save", "POST", self.hand_form, self.cookies, refusal=b"alert-danger", data=urlencode(data), headers=headers
        )
        response, body, sample = await request
        self.unanswered = data if response is None else None
        if response is None:
            return False
        self.answered.append(sample.end)
        self.read(body)
        if not self.hand_form:  # The hand won the game: its form is gone, Rematch is offered.
            sample.kind = "save that won"
        if "scores-changed" not in response.headers.get("HX-Trigger", ""):
            return True  # The answer brought the hand's place on the chart itself.
        chart = {"HX-Request": "true", "HX-Target": "score-chart-box", **self._from_page()}
        response, _, _ = await self.load.request("chart", "GET", self.game + "?part=chart", self.cookies, headers=chart)
        return response is not None

    async def rematch(self) -> bool:
        data = urlencode({"csrfmiddlewaretoken": self.fields["csrfmiddlewaretoken"]})
        headers = {"Content-Type": "application/x-www-form-urlencoded", **self._from_page()}
        request = self.load.request("rematch", "POST", self.rematch_form, self.cookies, expect=(302,), data=data, headers=headers)
        response, _, _ = await request
        return response is not None and await self.open(urlsplit(response.headers["Location"]).path)

    def _from_page(self) -> dict[str, str]:
        page = self.load.base + self.game
        return {"Origin": self.load.base, "Referer": page, "HX-Current-URL": page}

    async def phone(self, number: int) -> None:
        rng = random.Random(f"{self.index}-{number}")
        await asyncio.sleep(rng.uniform(0, POLL_EVERY))
        cookies: dict[str, str] = {}
        opened, etag = None, None
        shown = Shown(self.load, self.answered)
        while not self.load.stopping:
            if opened != self.watch:  # The link opened: the game's, or the new game's after a rematch.
                opened, etag = self.watch, None
                response, _, sample = await self.load.request("watch page", "GET", opened, cookies)
                changed = True
            else:
                headers = {"HX-Request": "true", "HX-Target": "live", "HX-Trigger": "live", "HX-Current-URL": self.load.base + opened}
                if etag:
                    headers["If-None-Match"] = etag
                response, _, sample = await self.load.request("poll", "GET", opened, cookies, expect=(200, 304), headers=headers)
                changed = response is not None and response.status == 200
                if changed:
                    etag = response.headers.get("ETag")
                    sample.kind = "poll, changed"
            if response is None and not self.load.keep_going:
                return
            if response is not None:
                shown.answer(sample, changed)
            await asyncio.sleep(POLL_EVERY)


class Shown:
    """How soon one watching phone shows each save: from the save's answer to the end of the first answer that holds it.

    An answer holds every save answered before its request was sent. A save answered while a poll was on its way may
    be in that poll's answer or not: if the next poll is a 304, it was, and it counts as shown when that answer came.
    """

    def __init__(self, load: Load, answered: list[float]) -> None:
        self.load, self.answered = load, answered
        self.seen = 0  # The saves before this one have been shown.
        self.last_change = 0.0  # When the last answer with a change came.

    def answer(self, sample: Sample, changed: bool) -> None:
        shown_at = sample.end if changed else self.last_change
        while self.seen < len(self.answered) and self.answered[self.seen] <= sample.start:
            saved = self.answered[self.seen]
            self.load.shown.append((saved, max(0.0, shown_at - saved) * 1000))
            self.seen += 1
        if changed:
            self.last_change = sample.end


# The steps ---------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else float("nan")


def step_figures(
    load: Load, tables: int, since: float, window: tuple[float, float], before: CpuReading, after: CpuReading, logged: list
) -> dict:
    """Latencies of the requests sent in the window; errors since ``since`` (the new tables made and joining included).
    ``logged``: the access log's entries; those of the window say how long each request was in the app."""
    sent = [s for s in load.samples if window[0] <= s.start < window[1]]
    in_app = [(what, ms) for when, what, ms in logged if before.wall - 0.5 <= when < after.wall - 0.5]  # Logged to the second.

    def times(*kinds: str) -> list[float]:
        return [s.ms for s in sent if s.kind in kinds]

    saves, won = times("save", "save that won"), times("save that won")
    polls, changed = times("poll", "poll, changed"), times("poll, changed")
    used = cores(before, after)
    late = [seconds * 1000 for slot, seconds in load.late if window[0] <= slot < window[1]]
    errors = [text for at, text in load.errors if since <= at < window[1]]
    shown = [ms for saved, ms in load.shown if window[0] <= saved < window[1]]
    figures = {
        "tables": tables,
        "window_s": round(window[1] - window[0]),
        "requests_per_s": round(len(sent) / (window[1] - window[0]), 1),
        "errors": len(errors),
        "error_examples": errors[:5],
        "saves": len(saves),
        "saves_that_won": len(won),
        "polls": len(polls),
        "polls_changed": len(changed),
        "load_average": after.load_average,
        "cores": {name: round(value, 3) for name, value in used.items()},
        "saves_late_ms_max": round(max(late, default=0.0), 1),
        "cpu_ms_per_table_s": round(1000 * (used["app"] + used["database"]) / tables, 2),
    }
    for what in ("save", "unchanged poll", "chart"):
        values = [ms for kind, ms in in_app if kind == what]
        figures[f"in_app_p50_{what.replace(' ', '_')}_ms"] = percentile(values, 0.5)
        figures[f"in_app_p95_{what.replace(' ', '_')}_ms"] = percentile(values, 0.95)
    for name, values in (("save", saves), ("save_that_won", won), ("poll", polls), ("poll_changed", changed), ("shown", shown)):
        for label, share in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0)):
            figures[f"{label}_{name}_ms"] = round(percentile(values, share), 1)
    for name in ("chart", "rematch", "game page", "watch page"):
        values = times(name)
        figures[f"{name.replace(' ', '_')}s"] = len(values)
        figures[f"p95_{name.replace(' ', '_')}_ms"] = round(percentile(values, 0.95), 1)
    return figures


def describe(step: dict) -> str:
    c = step["cores"]
    return (
        f"  {step['tables']} tables, {step['window_s']} s window, {step['requests_per_s']} requests/s, {step['errors']} errors\n"
        f"    saves {step['saves']}: p50 {step['p50_save_ms']:.0f} ms, p95 {step['p95_save_ms']:.0f} ms, p99 {step['p99_save_ms']:.0f} ms,"
        f" max {step['max_save_ms']:.0f} ms ({step['saves_that_won']} that won a game: p95 {step['p95_save_that_won_ms']:.0f} ms)\n"
        f"    polls {step['polls']}: p50 {step['p50_poll_ms']:.0f} ms, p95 {step['p95_poll_ms']:.0f} ms, p99 {step['p99_poll_ms']:.0f} ms,"
        f" max {step['max_poll_ms']:.0f} ms ({step['polls_changed']} with a change, 200: p95 {step['p95_poll_changed_ms']:.0f} ms;"
        " the others 304)\n"
        f"    chart reloads {step['charts']}: p95 {step['p95_chart_ms']:.0f} ms; rematches {step['rematchs']}: p95"
        f" {step['p95_rematch_ms']:.0f} ms; game pages {step['game_pages']}, watch pages {step['watch_pages']}:"
        f" p95 {step['p95_game_page_ms']:.0f} / {step['p95_watch_page_ms']:.0f} ms\n"
        f"    a save shown on a watching phone, from its answer: p50 {step['p50_shown_ms'] / 1000:.1f} s, p95"
        f" {step['p95_shown_ms'] / 1000:.1f} s, max {step['max_shown_ms'] / 1000:.1f} s\n"
        f"    in the app (gunicorn's time; the rest of a request's is the wait for a worker and the network): saves p50"
        f" {step['in_app_p50_save_ms']:.0f} ms, p95 {step['in_app_p95_save_ms']:.0f} ms; unchanged polls p50"
        f" {step['in_app_p50_unchanged_poll_ms']:.0f} ms, p95 {step['in_app_p95_unchanged_poll_ms']:.0f} ms; charts p50"
        f" {step['in_app_p50_chart_ms']:.0f} ms, p95 {step['in_app_p95_chart_ms']:.0f} ms\n"
        f"    CPU in cores (of {os.cpu_count()}): app {c['app']:.2f}, database {c['database']:.2f}, load generator"
        f" {c['load generator']:.3f}, everything else on the machine {c['everything else']:.2f} (busy {c['machine']:.2f});"
        f" app and database {step['cpu_ms_per_table_s']:.1f} ms of CPU a second per table\n"
        f"    waiting for a core, ready to run: the app {c['app waiting']:.2f} s a second (beside its {c['app']:.2f} s on one),"
        f" the database {c['database waiting']:.2f} s a second, the load generator {c['load generator waiting']:.2f} s a second\n"
        f"    load average {step['load_average']}; saves sent at most {step['saves_late_ms_max']:.0f} ms after their time"
    )


async def drive(
    base: str, env: dict[str, str], steps: list[int], window: float, settle: float, warmup: float, group: int, database, log: AccessLog
) -> list:
    # Connections kept open and shared by the phones, as the proxy in front (DEPLOY.md) keeps its own to the app server.
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar(), timeout=timeout) as http:
        load = Load(http, base)
        epoch, tasks, results = time.monotonic(), [], []
        joining = random.Random(1)
        made: list[dict] = []
        since = 0.0  # Errors count from the end of the last step's window: none is left out.
        for number, count in enumerate(steps):
            made += await new_tables(env, len(made), count)
            began = time.monotonic()
            for index in range(len(tasks), count):
                table = Table(load, index, made[index], began + joining.uniform(0, SAVE_EVERY), epoch)
                tasks.append(asyncio.create_task(table.play()))
            opens = began + SAVE_EVERY + settle + (warmup if number == 0 else 0)
            await asyncio.sleep(max(0.0, opens - time.monotonic()))
            before = CpuReading.take(group, database())
            await asyncio.sleep(window)
            after = CpuReading.take(group, database())
            await asyncio.sleep(1.5)  # The window's last requests logged.
            results.append(step_figures(load, count, since, (opens, opens + window), before, after, log.read_on()))
            since = opens + window
            print(describe(results[-1]), flush=True)
            for example in results[-1]["error_examples"]:
                print(f"    error: {example}", flush=True)
            if results[-1]["errors"] or not results[-1]["p95_save_ms"] <= SAVE_P95_LIMIT_MS:
                break
        load.stopping = True
        await asyncio.gather(*tasks)  # Requests in flight finish, so every answered save can be counted in the database.
        answered = sum(1 for s in load.samples if s.kind in ("save", "save that won") and s.ok)
        return results, answered


def take_lock(out: Path):
    """The lock of the runs that use PORT and the database: one at a time (it is let go when the file is closed)."""
    lock = (out / "capacity.lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"another capacity run is under way (it holds {out / 'capacity.lock'}): its port and database are taken") from None
    return lock


def run(out: Path, budget, production_env: dict[str, str], *, steps: list[int], window: float, sqlite: bool = False) -> str:
    """The capacity run; records its budget and returns the line that says the capacity."""
    lock = take_lock(out)  # noqa: F841  # Held while this run lasts: unlocked when it returns.
    url, name = database_url(out, sqlite)
    port = PORT
    base = f"http://127.0.0.1:{port}"
    print(f"== capacity: make prod on {name}, port {port}; steps of {', '.join(map(str, steps))} tables", flush=True)
    server = start_server(out, url, port, production_env["SECRET_KEY"])
    database_connection = None
    try:
        wait_until_up(base, server, out)
        print(f"  {workers(out / 'capacity-server.log')}", flush=True)
        log = AccessLog(out / "capacity-server.log")
        env = django_env(url, production_env)
        if url.startswith("postgres"):
            import psycopg

            database_connection = psycopg.connect(url, autocommit=True)

        def database_pids() -> list[int]:
            if database_connection is None:
                return []  # SQLite runs inside the app's processes.
            query = "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
            return [pid for (pid,) in database_connection.execute(query, [PG_DATABASE])]

        results, answered = asyncio.run(
            drive(base, env, steps, window, settle=5.0, warmup=30.0, group=server.pid, database=database_pids, log=log)
        )
        stored = int(manage_python(COUNT_HANDS, env))
    finally:
        if database_connection is not None:
            database_connection.close()
        stop_server(server)
    server_log = (out / "capacity-server.log").read_text(errors="replace")
    held = [step for step in results if not step["errors"] and step["p95_save_ms"] <= SAVE_P95_LIMIT_MS]
    last = held[-1] if held else results[0]
    tables = held[-1]["tables"] if held else 0
    capped = " (the last step tried)" if held and held[-1] is results[-1] else ""
    print(
        f"  saves answered {answered:,}, hands in the database {stored:,}; tracebacks in the server's log: {server_log.count('Traceback')}"
    )
    print(f"  the figures: {out / 'capacity.json'}; the server's log: {out / 'capacity-server.log'}", flush=True)
    (out / "capacity.json").write_text(json.dumps({"database": name, "steps": results, "answered": answered, "stored": stored}, indent=2))
    budget(
        f"Capacity: make prod on {name}, a hand every 20 s and 3 phones polling every 3 s per table",
        f"{tables} tables{capped}: p95 save {last['p95_save_ms']:.0f} ms, p95 poll {last['p95_poll_ms']:.0f} ms, a save shown on a"
        f" watching phone p95 {last['p95_shown_ms'] / 1000:.1f} s (max {last['max_shown_ms'] / 1000:.1f} s),"
        f" {last['requests_per_s']} requests/s, app {last['cores']['app']:.2f} + database {last['cores']['database']:.2f} cores,"
        f" load generator {last['cores']['load generator']:.3f} cores",
        ">= 300 tables (p95 save <= 250 ms, no errors); every save stored",
        tables >= 300 and answered == stored and "Traceback" not in server_log,
    )
    figures = f"p95 save {last['p95_save_ms']:.0f} ms, p95 poll {last['p95_poll_ms']:.0f} ms, errors {last['errors']}"
    return f"capacity: {tables} tables ({figures})"


# Two app servers, one killed --------------------------------------------------------------------

FAILOVER_PORTS = (8148, 8149)  # The two app servers; the proxy listens on PORT.
HAPROXY_CONFIG = ROOT / "bench" / "haproxy.cfg"
BEFORE_KILL, DURING, AFTER = 30.0, 10.0, 40.0  # Seconds measured before the kill, from it, and after that.


def start_proxy(out: Path) -> subprocess.Popen:
    """HAProxy (Debian's package) on PORT in front of the two app servers, with bench/haproxy.cfg."""
    env = {**os.environ, "PROXY_PORT": str(PORT), "APP_A": f"127.0.0.1:{FAILOVER_PORTS[0]}", "APP_B": f"127.0.0.1:{FAILOVER_PORTS[1]}"}
    env["PROXY_STATS"] = str(out / "haproxy.sock")
    with (out / "haproxy.log").open("w") as log:
        return subprocess.Popen(["haproxy", "-db", "-f", str(HAPROXY_CONFIG)], env=env, stdout=log, stderr=subprocess.STDOUT)


def proxy_counters(out: Path) -> dict[str, str]:
    """The backend's retries and redispatches, from HAProxy's stats socket."""
    import socket

    with socket.socket(socket.AF_UNIX) as stats:
        stats.connect(str(out / "haproxy.sock"))
        stats.sendall(b"show stat\n")
        text = b"".join(iter(lambda: stats.recv(65536), b"")).decode()
    header, *rows = [line.split(",") for line in text.splitlines() if line]
    names = [name.lstrip("# ") for name in header]
    counters = {}
    for row in rows:
        fields = dict(zip(names, row, strict=False))
        counters[f"{fields['pxname']}/{fields['svname']}"] = (
            f"{fields['status']}, retries {fields['wretr'] or 0}, redispatches {fields['wredis'] or 0}, 5xx {fields['hrsp_5xx'] or 0}"
        )
    return counters


def window_figures(load: Load, window: tuple[float, float]) -> str:
    sent = [s for s in load.samples if window[0] <= s.start < window[1]]
    saves = [s.ms for s in sent if s.kind in ("save", "save that won") and s.ok]
    polls = [s.ms for s in sent if s.kind in ("poll", "poll, changed") and s.ok]
    errors = [text for at, text in load.errors if window[0] <= at < window[1]]
    return (
        f"{len(saves)} saves p95 {percentile(saves, 0.95):.0f} ms (max {max(saves, default=0):.0f}), {len(polls)} polls p95"
        f" {percentile(polls, 0.95):.0f} ms, {len(errors)} errors seen by the phones"
    )


async def failover_drive(base: str, env: dict[str, str], tables: int, out: Path, kill) -> tuple[Load, list[float], int]:
    """``tables`` tables through the proxy; ``kill`` is called partway. Returns the load, the windows' edges and the
    saves answered."""
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar(), timeout=aiohttp.ClientTimeout(total=30)
    ) as http:
        load = Load(http, base, keep_going=True)
        made = await new_tables(env, 0, tables)
        began = time.monotonic()
        joining = random.Random(1)
        tasks = [asyncio.create_task(Table(load, i, made[i], began + joining.uniform(0, SAVE_EVERY), began).play()) for i in range(tables)]
        opens = began + SAVE_EVERY + 10.0
        edges = [opens, opens + BEFORE_KILL, opens + BEFORE_KILL + DURING, opens + BEFORE_KILL + DURING + AFTER]
        await asyncio.sleep(max(0.0, edges[1] - time.monotonic()))
        kill()
        await asyncio.sleep(max(0.0, edges[3] - time.monotonic()))
        load.stopping = True
        await asyncio.gather(*tasks)
        answered = sum(1 for s in load.samples if s.kind in ("save", "save that won") and s.ok)
        return load, edges, answered


def failover(out: Path, budget, production_env: dict[str, str], *, tables: int) -> str:
    """Two `make prod` servers behind HAProxy, ``tables`` tables across them; one server killed (SIGKILL, its whole
    process group) partway. Saves acknowledged against hands stored, the phones' errors, latencies before, during and
    after."""
    lock = take_lock(out)  # noqa: F841  # Held while this run lasts.
    url, name = database_url(out, sqlite=False)
    if not url.startswith("postgres"):
        raise SystemExit("--failover needs PostgreSQL on 127.0.0.1: two servers share one database")
    print(f"== failover: two make prod servers on ports {FAILOVER_PORTS} behind HAProxy on {PORT}, {name}; {tables} tables", flush=True)
    servers: list[subprocess.Popen] = []
    proxy = None
    try:
        for letter, port in zip("ab", FAILOVER_PORTS, strict=True):  # One after the other: the first migrates the new database.
            servers.append(start_server(out, url, port, production_env["SECRET_KEY"], f"failover-server-{letter}.log"))
            wait_until_up(f"http://127.0.0.1:{port}", servers[-1], out, f"failover-server-{letter}.log")
        proxy = start_proxy(out)
        time.sleep(2)  # The proxy's first health checks.
        env = django_env(url, production_env)
        killed: list[float] = []

        def kill() -> None:
            killed.append(time.monotonic())
            with contextlib.suppress(ProcessLookupError):
                os.killpg(servers[0].pid, signal.SIGKILL)
            print(f"  killed server a (port {FAILOVER_PORTS[0]}): every process of its group", flush=True)

        load, edges, answered = asyncio.run(failover_drive(f"http://127.0.0.1:{PORT}", env, tables, out, kill))
        counters = proxy_counters(out)
        stored = int(manage_python(COUNT_HANDS, env))
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        for server in servers:
            stop_server(server)
    for label, window in (("before the kill", edges[0:2]), (f"the {DURING:.0f} s from the kill", edges[1:3]), ("after it", edges[2:4])):
        print(f"  {label}: {window_figures(load, (window[0], window[1]))}", flush=True)
    for server, text in counters.items():
        print(f"  proxy {server}: {text}", flush=True)
    errors = len(load.errors)
    for _at, text in load.errors[:5]:
        print(f"    error: {text}", flush=True)
    print(f"  saves acknowledged {answered:,}, hands stored {stored:,}; errors seen by the phones {errors}", flush=True)
    during = window_figures(load, (edges[1], edges[2]))
    after = window_figures(load, (edges[2], edges[3]))
    budget(
        f"Failover: two make prod servers behind HAProxy, {tables} tables, one server killed partway",
        f"saves acknowledged {answered:,}, hands stored {stored:,}; {errors} errors seen by the phones; during: {during}; after: {after}",
        "acknowledged = stored, no error",
        answered == stored and errors == 0,
    )
    return f"failover: saves acknowledged {answered}, hands stored {stored}, errors {errors}"
