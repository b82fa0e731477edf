"""The benchmark's browser part: ``bench/run.py --browser-only [--peer DIR] [--trace]``, or as part of ``make bench``.

Runs the production stack (gunicorn, DEBUG off, static files collected, HTML compressed by the app as ``make
prod`` and ``make lan`` serve it) on 127.0.0.1 and drives the system Chromium as a phone: 390x844, touch, an
emulated mobile network (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and a 4x CPU slowdown, both set
through the DevTools protocol (Network.emulateNetworkConditions, Emulation.setCPUThrottlingRate). The service
worker is blocked in this context, so every request goes through the page's throttled network (throttling set on
a page does not reach its worker's requests). It measures:

- tap to totals: from the click event on "Save hand" (``performance.now()`` in a capturing click listener) to the
  first change of the totals' text on the scoreboard, as a MutationObserver on the page sees it. With ``--peer
  DIR`` the same is measured, in the same run and the same Chromium under the same throttling, on a static
  scorekeeper served as plain files from DIR (a checkout of github.com/MrWobbles/10-Point-Pitch-Scoring, its
  index.html; its Firebase scripts from a CDN are refused, as no page here reaches the internet): its
  "Apply Hand to Score" to its ``.score`` text changing. The two pages take turns, a hand each, throttled and
  then unthrottled, so a busy moment on the machine slows both;
- each tap as the browser measures it (Event Timing, what Interaction to Next Paint reports: from the input's own
  timestamp to the next paint after its handlers, split into input delay, processing and presentation): "Save hand"
  and three taps in the hand form (the pitcher, the bid, a point), real clicks through the DevTools protocol; on the
  peer its "Apply Hand to Score" and three of its taps (who took the bid, two points); and on **the floor**, a bare
  page this script serves itself (one button whose handler changes one number), tapped the same way in the same
  Chromium: what any page costs there. The pages take turns, throttled and then not. With ``--trace``, a few more
  saves under the DevTools protocol's Tracing say where Save hand's time goes on the renderer's main thread
  (handlers, style, layout, paint), and the last one's trace is kept (bench/out/save-hand-trace.json);
- bytes per saved hand: everything the page received over the network (headers and bodies, as sent: the
  DevTools protocol's encoded length) from the tap until the page is idle again, and what it posted;
- sync: 20 hands saved offline, then the network back: from the "online" event to the page saying the queue
  is done, and the server's count of stored hands (nothing lost or doubled);
- the game page's first load: every byte the browser received for it (as sent, compressed where the server
  compresses), and the service worker's script, which a phone fetches once as well.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = "8766"
PEER_PORT = 8767
FLOOR_PORT = 8768
BASE = f"http://127.0.0.1:{PORT}"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
MOBILE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
UNTHROTTLED = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
TAPS = 20  # Hands timed in each profile, after the warm-up ones.
WARMUP = 3
QUEUED = 20
OURS_TOTALS = "#scoreboard .scoreboard td.total"
PEER_TOTALS = ".scoreboard .score"

PREPARE = """
import django, json
django.setup()
from django.contrib.auth import get_user_model, SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from scores.engine import rules
from scores.table import services as table_services
from scores.models import League, Membership, Role
user = get_user_model().objects.create_user("phone", password="phone-password-long")
league = League.objects.create(name="Cabin", slug="cabin")
Membership.objects.create(league=league, user=user, role=Role.SCORER)
played_by = rules.Rules(target=rules.MAX_TARGET)
games = [table_services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], code=c, rules=played_by) for c in ("taps", "sync")]
session = SessionStore()
session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(user.pk), "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print(json.dumps({"session": session.session_key, "games": [[g.pk, g.get_absolute_url()] for g in games]}))
"""

# Times one tap: from its click event to the first change of the totals' text (the same code for both pages), and
# on our page the server's answer swapped in.
WATCH_TAP = """([button, totals]) => {
  const t = {};
  window.benchTap = t;
  const text = () => [...document.querySelectorAll(totals)].map((cell) => cell.textContent).join("|");
  let before = null;
  const observer = new MutationObserver(() => {
    if (t.tap !== undefined && t.board === undefined && text() !== before) {
      t.board = performance.now();
      observer.disconnect();
    }
  });
  window.addEventListener("click", (event) => {
    if (!event.target.closest(button)) return;
    before = text();
    t.tap = performance.now();
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, { capture: true, once: true });
  document.body.addEventListener("htmx:afterSwap", () => { t.server ??= performance.now(); }, { once: true });
}"""

WATCH_SYNC = """() => {
  const t = {};
  window.benchSync = t;
  window.addEventListener("online", () => { t.online = performance.now(); }, { once: true });
  new MutationObserver(() => {
    if (t.online && !t.done && document.getElementById("offline").dataset.sync === "done") t.done = performance.now();
  }).observe(document.getElementById("offline"), { attributes: true });
}"""


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def figures(values: list[float]) -> str:
    return f"median {statistics.median(values):.1f} / p95 {p95(values):.1f} ms"


# The taps before the timed one, in one call into the page: only the timed tap needs to be a real click.
TAP_LABELS = """(taps) => {
  for (const [group, label] of taps) {
    const legend = [...document.querySelectorAll("#hand fieldset legend")].find((each) => each.textContent.trim() === group);
    [...legend.parentElement.querySelectorAll("label")].find((each) => each.textContent.trim() === label).click();
  }
}"""
TAP_PEER = """([team, other]) => {
  for (const index of [2, 3, 4]) document.querySelectorAll(`.hand-point-btn[data-team="${team}"]`)[index].click();
  document.querySelectorAll(`.hand-point-btn[data-team="${other}"]`)[5].click();
}"""


def tap_hand(page, number: int, timed: Callable[[str, object], None] | None = None) -> None:
    """A hand in the form. With ``timed``, its first three taps (pitcher, bid, a point) are real clicks, each given
    to ``timed`` with its label to click; the others are clicked in one call into the page."""
    pitcher = ["Ann", "Bob", "Cat", "Dan"][number % 4]
    taps = [["Pitcher", pitcher], ["Bid", "2"], ["High", pitcher], ["Low", pitcher], ["Jack", "Not in play"], ["Game", "Tied"]]
    if timed is not None:
        for group, label in taps[:3]:
            fieldset = page.locator("#hand fieldset").filter(has=page.locator("legend", has_text=re.compile(f"^{group}$")))
            timed("form", fieldset.locator("label").filter(has_text=re.compile(f"^{label}$")))
        taps = taps[3:]
    page.evaluate(TAP_LABELS, taps)


def tap_peer_hand(page, number: int, timed: Callable[[str, object], None]) -> None:
    """A hand on the peer: five of its point buttons for one team, one for the other, who took the bid (bids stay 5).
    Its first three taps are real clicks given to ``timed``: who took the bid and two points."""
    team = 1 + number % 2
    timed("form", page.locator(f'input[name=bidTaker][value="{team}"]'))
    for index in (0, 1):
        timed("form", page.locator(f'.hand-point-btn[data-team="{team}"]').nth(index))
    page.evaluate(TAP_PEER, [team, 3 - team])


def poll(page, expression: str, timeout: float = 30.0):
    """Polls an expression in the page (the app's CSP refuses ``wait_for_function``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.02)
    raise TimeoutError(expression)


# Event Timing -------------------------------------------------------------------------------------

# Every interaction's event entries from the browser (Event Timing, the source of Interaction to Next Paint): from
# the input's timestamp to the next paint after its handlers, in 8 ms steps; entries under 16 ms are not reported.
OBSERVE_EVENTS = """() => {
  if (window.benchEvents) return;
  window.benchEvents = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.interactionId) window.benchEvents.push({ id: e.interactionId, name: e.name, start: e.startTime,
        processingStart: e.processingStart, processingEnd: e.processingEnd, duration: e.duration });
    }
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
}"""
# The first interaction that started after ``mark``, as INP's attribution splits it: input delay (to the first
# handler), processing (the handlers of its events) and presentation (to the next paint).
INTERACTION = """(mark) => {
  const first = window.benchEvents.find((e) => e.start >= mark);
  if (!first) return null;
  const mine = window.benchEvents.filter((e) => e.id === first.id);
  const duration = Math.max(...mine.map((e) => e.duration));
  const processingStart = Math.min(...mine.map((e) => e.processingStart));
  const processingEnd = Math.max(...mine.map((e) => e.processingEnd));
  return { start: first.start, duration, inputDelay: processingStart - first.start,
    processing: processingEnd - processingStart, presentation: first.start + duration - processingEnd };
}"""
UNREPORTED_MS = 16.0  # An interaction with no entry took under 16 ms: counted as 16, and said how many.
# The floor: a bare page with one button whose handler changes one number, served by this script as the peer is.
FLOOR_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title></head>
<body><button type="button" id="tap">Tap</button> <output id="count">0</output>
<script>document.getElementById("tap").addEventListener("click", () => {
  const count = document.getElementById("count"); count.textContent = Number(count.textContent) + 1; });</script>
</body></html>"""


def timed_tap(page, locator, unreported: list[int]) -> dict[str, float]:
    """A real click on ``locator`` (trusted input through the DevTools protocol, as the other taps), and its
    interaction's Event Timing. Waits for the interaction's entry until a second has passed."""
    page.evaluate(OBSERVE_EVENTS)
    mark = page.evaluate("performance.now()")
    locator.click()
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        if interaction := page.evaluate(INTERACTION, mark):
            return interaction
        time.sleep(0.02)
    unreported.append(1)
    return {"start": mark, "duration": UNREPORTED_MS, "inputDelay": 0.0, "processing": 0.0, "presentation": 0.0}


class EventTimes:
    """Each app's interactions by profile and kind of tap: ``times[profile][app][kind]`` is a list of entries."""

    def __init__(self) -> None:
        self.times: dict[str, dict[str, dict[str, list[dict[str, float]]]]] = {}
        self.unreported: list[int] = []

    def add(self, profile: str, app: str, kind: str, interaction: dict[str, float]) -> None:
        self.times.setdefault(profile, {}).setdefault(app, {}).setdefault(kind, []).append(interaction)

    def durations(self, profile: str, app: str, kind: str) -> list[float]:
        return [entry["duration"] for entry in self.times.get(profile, {}).get(app, {}).get(kind, [])]

    def lines(self) -> list[str]:
        lines = []
        for profile, apps in self.times.items():
            for app, kinds in apps.items():
                for kind, entries in kinds.items():
                    parts = {part: statistics.median(e[part] for e in entries) for part in ("inputDelay", "processing", "presentation")}
                    lines.append(
                        f"{profile}, {app}, {kind}: {figures([e['duration'] for e in entries])} ({len(entries)} taps; medians: input delay"
                        f" {parts['inputDelay']:.0f}, processing {parts['processing']:.0f}, presentation {parts['presentation']:.0f} ms)"
                    )
        return lines


class Traffic:
    """What one page sent and received over the network, from the DevTools protocol's events."""

    def __init__(self, cdp) -> None:
        self.received = 0
        self.sent = 0
        self.requests: list[str] = []
        self.urls: dict[str, str] = {}
        self.sizes: list[tuple[str, int]] = []  # Each finished request's address and the bytes it received.
        self.open: set[str] = set()
        cdp.on("Network.requestWillBeSent", self._started)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", lambda event: self.open.discard(event["requestId"]))

    def _started(self, event) -> None:
        self.open.add(event["requestId"])
        self.urls[event["requestId"]] = event["request"]["url"].removeprefix(BASE)
        self.requests.append(f"{event['request']['method']} {event['request']['url']}")
        self.sent += len(event["request"].get("postData", "").encode())

    def _finished(self, event) -> None:
        self.open.discard(event["requestId"])
        self.received += int(event["encodedDataLength"])
        self.sizes.append((self.urls.get(event["requestId"], "?"), int(event["encodedDataLength"])))

    def mark(self) -> tuple[int, int, int]:
        return self.received, self.sent, len(self.sizes)

    def idle(self, page, settle: float = 0.6) -> None:
        """Until no request has been open for ``settle`` seconds (a request an answer sets off starts after it)."""
        quiet = time.monotonic()
        end = quiet + 30
        while time.monotonic() < end:
            page.evaluate("0")  # Lets the protocol's events in.
            if self.open:
                quiet = time.monotonic()
            elif time.monotonic() - quiet >= settle:
                return
            time.sleep(0.02)
        raise TimeoutError("the page did not go idle")


def throttle(cdp, throttled: bool) -> None:
    cdp.send("Network.emulateNetworkConditions", MOBILE if throttled else UNTHROTTLED)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4 if throttled else 1})


def serve_files(directory: Path, port: int) -> http.server.ThreadingHTTPServer:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# Kept whole (C901, PLR0912, PLR0915): one Chromium session, each step using the pages and servers the steps before it opened.
def run(  # noqa: C901, PLR0912, PLR0915
    out: Path,
    budget: Callable[[str, str, str, bool | None], None],
    production_env: dict[str, str],
    peer: Path | None = None,
    trace: bool = False,
) -> None:
    from playwright.sync_api import sync_playwright

    if peer is not None and not (peer / "index.html").is_file():
        raise SystemExit(f"--peer {peer}: no index.html there (give a checkout of the peer's repository)")
    database = out / "browser.sqlite3"
    for path in out.glob("browser.sqlite3*"):
        path.unlink()
    env = {**os.environ, **production_env, "DATABASE_URL": f"sqlite:///{database}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    env["DJANGO_SETTINGS_MODULE"] = "pitchleague.settings"
    made = json.loads(subprocess.run([python, "-c", PREPARE], cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout)
    (_taps_game, taps_url), (sync_game, sync_url) = made["games"]
    log = open(out / "gunicorn-browser.log", "w")  # noqa: SIM115  # Open while the server runs.
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "pitchleague.wsgi", "--bind", f"127.0.0.1:{PORT}", "--workers", "2"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    peer_server = serve_files(peer, PEER_PORT) if peer is not None else None
    (out / "floor").mkdir(exist_ok=True)
    (out / "floor" / "index.html").write_text(FLOOR_HTML)
    floor_server = serve_files(out / "floor", FLOOR_PORT)
    try:
        for _ in range(100):
            try:
                subprocess.run(["curl", "-sf", "-o", "/dev/null", f"{BASE}/healthz"], check=True)
                break
            except subprocess.CalledProcessError:
                time.sleep(0.1)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, service_workers="block")
            context.add_cookies([{"name": "sessionid", "value": made["session"], "url": BASE}])
            # Nothing leaves the machine: the peer's CDN scripts are refused, as they would be offline.
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort())
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})  # A first visit: nothing cached yet.
            traffic = Traffic(cdp)
            throttle(cdp, True)

            # First load: what the browser received for the game page, and the service worker's script.
            page.goto(BASE + taps_url)
            traffic.idle(page)
            first_received, _, first_requests = traffic.mark()
            request = urllib.request.Request(BASE + "/sw.js", headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request) as answer:  # Our own server on loopback.
                worker = len(answer.read())
            first_load = first_received + worker
            bodies = page.evaluate(
                "[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]"
                ".reduce((sum, entry) => sum + entry.encodedBodySize, 0)"
            )
            by_kind = first_load_parts(traffic.sizes[:first_requests])
            budget(
                "Game page first load in the browser (phone, new game), with the service worker's script",
                f"**{first_load / 1024:.1f} KB** as sent ({first_requests} requests {first_received / 1024:.1f} KB with their headers,"
                f" {bodies / 1024:.1f} KB without; sw.js {worker / 1024:.1f} KB){by_kind}",
                "<= 60 KB",
                first_load <= 60 * 1024,
            )
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})

            peer_page = peer_cdp = None
            if peer is not None:
                peer_page = context.new_page()
                peer_cdp = context.new_cdp_session(peer_page)
                peer_cdp.send("Network.enable")
                throttle(peer_cdp, True)
                peer_page.goto(f"http://127.0.0.1:{PEER_PORT}/index.html")
                peer_page.evaluate("localStorage.clear()")
                peer_page.reload()
                peer_page.wait_for_load_state("load")
                # A game that goes on for every hand measured (the peer's game ends at its winning score).
                peer_page.locator("#winningScore").evaluate("(input) => { input.value = 9999; input.dispatchEvent(new Event('change')); }")
            floor_page = context.new_page()
            floor_cdp = context.new_cdp_session(floor_page)
            floor_page.goto(f"http://127.0.0.1:{FLOOR_PORT}/index.html")
            events = EventTimes()

            # Tap to totals and each tap's Event Timing, the pages in turns (ours, the peer's, the floor), throttled and
            # then not; bytes per saved hand on ours.
            number = 0
            results: dict[str, dict[str, list[float]]] = {}
            per_save: list[tuple[int, int]] = []
            for profile, throttled in (("throttled", True), ("unthrottled", False)):
                throttle(cdp, throttled)
                for each in (peer_cdp, floor_cdp):
                    if each is not None:
                        throttle(each, throttled)
                ours, server_ms, theirs = [], [], []
                for turn in range(1, WARMUP + TAPS + 1):
                    number += 1

                    def timed(kind: str, locator, app: str, timed_page, profile=profile, turn=turn) -> None:
                        interaction = timed_tap(timed_page, locator, events.unreported)
                        if turn > WARMUP:
                            events.add(profile, app, kind, interaction)

                    # Each page in front for its turn: a page behind another has its timers slowed (htmx swaps the
                    # server's answer in on one), as a phone's browser does for a tab not shown.
                    page.bring_to_front()
                    tap_hand(page, number, functools.partial(timed, app="Pitch League", timed_page=page))
                    page.evaluate(WATCH_TAP, ["#hand button.save", OURS_TOTALS])
                    before = traffic.mark()
                    timed("Save hand", page.get_by_role("button", name="Save hand"), "Pitch League", page)
                    t = poll(page, "window.benchTap.server && window.benchTap.board ? window.benchTap : null")
                    poll(page, f"document.querySelector('#hand #id_number')?.value === '{number + 1}'")
                    traffic.idle(page)
                    after = traffic.mark()
                    if turn > WARMUP:
                        ours.append(t["board"] - t["tap"])
                        server_ms.append(t["server"] - t["tap"])
                        if throttled:
                            per_save.append((after[0] - before[0], after[1] - before[1]))
                    if peer_page is not None:
                        peer_page.bring_to_front()
                        tap_peer_hand(peer_page, number, functools.partial(timed, app="the peer", timed_page=peer_page))
                        peer_page.evaluate(WATCH_TAP, ["#applyHandBtn", PEER_TOTALS])
                        timed("Save hand", peer_page.get_by_role("button", name="Apply Hand to Score"), "the peer", peer_page)
                        t = poll(peer_page, "window.benchTap.board ? window.benchTap : null")
                        if turn > WARMUP:
                            theirs.append(t["board"] - t["tap"])
                    floor_page.bring_to_front()
                    for _ in range(2):
                        timed("tap", floor_page.get_by_role("button", name="Tap"), "the floor", floor_page)
                results[profile] = {"ours": ours, "server": server_ms, "peer": theirs}
            throttled_ours = results["throttled"]["ours"]
            peer_p95 = p95(results["throttled"]["peer"]) if peer is not None else None
            lines = []
            for profile, measured in results.items():
                line = f"{profile}: ours {figures(measured['ours'])}"
                if measured["peer"]:
                    line += f", the peer {figures(measured['peer'])}"
                line += f" (ours to the server's answer swapped in: {figures(measured['server'])})"
                lines.append(line)
            ahead = peer_p95 is None or p95(throttled_ours) < peer_p95
            budget(
                f"Tap to totals, Chromium as a phone (150 ms RTT, 1.6/0.75 Mbit/s, 4x CPU slowdown), {TAPS} hands"
                + (", side by side with the peer" if peer is not None else ""),
                "; ".join(lines),
                "p95 <= 50 ms throttled" + (", and below the peer's" if peer is not None else ""),
                p95(throttled_ours) <= 50 and ahead,
            )
            (out / "event-timing.json").write_text(json.dumps(events.times, indent=1))
            event_timing_budget(budget, events, peer is not None)
            if trace:
                page.bring_to_front()
                throttle(cdp, True)
                lines = traced_saves(page, cdp, number + 1, events.unreported, out)
                budget(f"Save hand traced (phone, {TRACE_TAPS} taps): where the tap's time goes", "; ".join(lines), "(reported)", None)
            received = [r for r, _ in per_save]
            sent = [s for _, s in per_save]
            budget(
                "Bytes per saved hand in the browser (everything received from the tap until the page is idle, headers included)",
                f"**median {statistics.median(received) / 1024:.1f} KB**, max {max(received) / 1024:.1f} KB received;"
                f" {statistics.median(sent) / 1024:.1f} KB posted",
                "<= 6 KB",
                max(received) <= 6 * 1024,
            )

            # Sync: 20 hands saved offline, then the network back.
            throttle(cdp, True)
            page.goto(BASE + sync_url)
            poll(page, "document.getElementById('offline')?.dataset.ready === 'true'")
            cdp.send("Network.emulateNetworkConditions", {**MOBILE, "offline": True})
            poll(page, "!navigator.onLine")
            for number in range(1, QUEUED + 1):
                tap_hand(page, number)
                page.get_by_role("button", name="Save hand").click()
                poll(page, f"document.querySelectorAll('#history-body tr.waiting').length === {number}")
            page.evaluate(WATCH_SYNC)
            cdp.send("Network.emulateNetworkConditions", MOBILE)
            t = poll(page, "window.benchSync.done ? window.benchSync : null", timeout=60)
            took = (t["done"] - t["online"]) / 1000
            with sqlite3.connect(database) as db:
                count, distinct, first, last = db.execute(
                    "SELECT count(*), count(DISTINCT number), min(number), max(number) FROM scores_hand WHERE game_id = ?", (sync_game,)
                ).fetchone()
            whole = count == distinct == QUEUED and (first, last) == (1, QUEUED)
            budget(
                f"Sync: {QUEUED} hands saved offline, stored after the network returns (same phone emulation)",
                f'**{took:.2f} s** from the "online" event to the queue done; {count} stored, numbers {first}-{last}, '
                f"{'none lost or doubled' if whole else 'LOST OR DOUBLED'}",
                "<= 5 s, nothing lost or doubled",
                took <= 5 and whole,
            )
            browser.close()
    finally:
        for files in (peer_server, floor_server):
            if files is not None:
                files.shutdown()
        server.terminate()
        server.wait(10)
        log.close()


# A performance trace of Save hand ---------------------------------------------------------------

TRACE_TAPS = 5
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "v8.execute"]
# The renderer's main-thread events by what they do (the names DevTools' Performance panel reads).
TRACE_KINDS = {
    "handlers (script)": {"EventDispatch", "FunctionCall", "EvaluateScript", "TimerFire", "FireAnimationFrame", "RunMicrotasks",
                          "V8.Execute", "v8.compile", "v8.callFunction", "XHRReadyStateChange", "XHRLoad", "MajorGC", "MinorGC",
                          "V8.GC_SCAVENGER", "V8.GC_MARK_COMPACTOR", "HandlePostMessage"},
    "HTML parsing": {"ParseHTML", "ParseAuthorStyleSheet"},
    "style": {"UpdateLayoutTree", "RecalculateStyles"},
    "layout": {"Layout", "UpdateLayerTree", "IntersectionObserverController::computeIntersections"},
    "paint and commit": {"PrePaint", "Paint", "Layerize", "Commit", "PaintImage", "UpdateLayer", "CompositeLayers", "Animation Frame"},
}  # fmt: skip
OTHER = "other (tasks, input, idle callbacks)"


class Trace:
    """A DevTools protocol trace of a page (Tracing.start/end), its events gathered as they come."""

    def __init__(self, cdp) -> None:
        self.cdp, self.events, self.complete = cdp, [], False
        cdp.on("Tracing.dataCollected", lambda event: self.events.extend(event["value"]))
        cdp.on("Tracing.tracingComplete", lambda _event: setattr(self, "complete", True))

    def start(self) -> None:
        self.events, self.complete = [], False
        config = {"includedCategories": TRACE_CATEGORIES, "excludedCategories": ["*"]}
        self.cdp.send("Tracing.start", {"transferMode": "ReportEvents", "traceConfig": config})

    def stop(self, page) -> list[dict]:
        self.cdp.send("Tracing.end")
        end = time.monotonic() + 30
        while not self.complete and time.monotonic() < end:
            page.evaluate("0")  # Lets the protocol's events in.
            time.sleep(0.05)
        return self.events


def trace_breakdown(events: list[dict], mark: str, mark_ms: float, interaction: dict[str, float]) -> dict[str, float]:
    """Where one interaction's time went on the renderer's main thread: the self time of its events that began
    between the input's timestamp and the next paint, by kind. ``mark``: a performance mark the page made at
    ``mark_ms`` (its clock), which places the interaction on the trace's clock."""
    placed = next(e for e in events if e.get("name") == mark and e.get("cat") == "blink.user_timing")
    offset_us = placed["ts"] - mark_ms * 1000
    begin = interaction["start"] * 1000 + offset_us
    end = begin + interaction["duration"] * 1000
    main = {(e["pid"], e["tid"]) for e in events if e.get("name") == "EventDispatch"}
    spans = sorted(
        (e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in main and "dur" in e), key=lambda e: (e["ts"], -e["dur"])
    )
    kinds = {name: kind for kind, names in TRACE_KINDS.items() for name in names}
    spent: dict[str, float] = {}
    own = [float(span["dur"]) for span in spans]  # Each event's time less its nested events'.
    stack: list[int] = []
    for index, span in enumerate(spans):
        while stack and spans[stack[-1]]["ts"] + spans[stack[-1]]["dur"] <= span["ts"]:
            stack.pop()
        if stack:
            own[stack[-1]] -= span["dur"]
        stack.append(index)
    for index, span in enumerate(spans):
        if begin <= span["ts"] < end:
            kind = kinds.get(span["name"], OTHER)
            spent[kind] = spent.get(kind, 0.0) + max(0.0, own[index]) / 1000
    return spent


def traced_saves(page, cdp, first: int, unreported: list[int], out: Path) -> list[str]:
    """TRACE_TAPS hands saved on our page under a trace, each tap's time split by Event Timing and by the trace. The
    last tap's trace is kept in ``out`` (save-hand-trace.json: DevTools' Performance panel opens it)."""
    trace = Trace(cdp)
    rows = []
    for number in range(first, first + TRACE_TAPS):
        tap_hand(page, number)
        trace.start()
        mark_ms = page.evaluate("performance.mark('bench-save').startTime")
        interaction = timed_tap(page, page.get_by_role("button", name="Save hand"), unreported)
        poll(page, f"document.querySelector('#hand #id_number')?.value === '{number + 1}'", timeout=30)
        events = trace.stop(page)
        rows.append({**interaction, **trace_breakdown(events, "bench-save", mark_ms, interaction)})
        page.evaluate("performance.clearMarks('bench-save')")
    (out / "save-hand-trace.json").write_text(json.dumps({"traceEvents": events}))
    kinds = ["duration", "inputDelay", "processing", "presentation", *TRACE_KINDS, OTHER]
    return [f"{kind}: median {statistics.median(row.get(kind, 0.0) for row in rows):.1f} ms" for kind in kinds]


def event_timing_budget(budget: Callable[[str, str, str, bool | None], None], events: EventTimes, with_peer: bool) -> None:
    """The taps as the browser measures them, against the floor (and the peer): the goals of BENCHMARKS.md."""
    ok = True
    for profile in events.times:
        floor = p95(events.durations(profile, "the floor", "tap"))
        for kind, over in (("form", 16), ("Save hand", 50)):
            ours = events.durations(profile, "Pitch League", kind)
            ok = ok and (profile != "throttled" or p95(ours) <= floor + over)
            if with_peer:
                theirs = events.durations(profile, "the peer", kind)
                ok = ok and statistics.median(ours) < statistics.median(theirs) and p95(ours) < p95(theirs)
    unreported = f"; {len(events.unreported)} taps under 16 ms (not reported, counted as 16)" if events.unreported else ""
    budget(
        f"Taps as the browser measures them (Event Timing: input to next paint), {TAPS} hands, beside the floor (a bare page)"
        + (" and the peer" if with_peer else ""),
        "; ".join(events.lines()) + unreported,
        "throttled: form p95 <= floor p95 + 16 ms, Save hand p95 <= floor p95 + 50 ms"
        + ("; ahead of the peer at median and p95, both profiles" if with_peer else ""),
        ok,
    )


def first_load_parts(sizes: list[tuple[str, int]]) -> str:
    """The first load's requests, largest first, so that the report says what makes up the bytes."""
    parts = sorted(sizes, key=lambda size: -size[1])
    return ": " + ", ".join(f"{url.split('?')[0]} {received / 1024:.1f}" for url, received in parts)
