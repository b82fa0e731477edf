"""The benchmark's browser part: ``bench/run.py --browser-only``, or as part of ``make bench``.

Runs the production stack (gunicorn, DEBUG off, static files collected) on 127.0.0.1 and drives the system
Chromium as a phone: 390x844, touch, an emulated mobile network (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
up) and a 4x CPU slowdown, both through the DevTools protocol. The service worker is blocked in this context,
so every request goes through the page's throttled network (throttling set on a page does not reach its
worker's requests). It measures:

- tap to scoreboard updated: from the click on "Save hand" to the first change of the scoreboard's totals
  (the browser's scorer), and, in the same taps, to the server's answer swapped in, which is when today's
  page (without the optimistic update) changes the scoreboard: the same path, measured the same way;
- sync: 20 hands saved offline, then the network back: from the "online" event to the page saying the queue
  is done, and the server's count of stored hands (nothing lost or doubled);
- the game page's first load in bytes as the browser fetched them (static files gzip from WhiteNoise; the HTML
  gzip-compressed here, as a reverse proxy sends it).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = "8766"
BASE = f"http://127.0.0.1:{PORT}"
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
MOBILE = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
TAPS = 40  # Hands timed; the first few warm up.
WARMUP = 5
QUEUED = 20

PREPARE = """
import django, json
django.setup()
from django.contrib.auth import get_user_model, SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from scores import services, rules
from scores.models import League, Membership, Role
user = get_user_model().objects.create_user("phone", password="phone-password-long")
league = League.objects.create(name="Cabin", slug="cabin")
Membership.objects.create(league=league, user=user, role=Role.SCORER)
played_by = rules.Rules(target=rules.MAX_TARGET)
games = [services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], code=c, rules=played_by) for c in ("taps", "sync")]
session = SessionStore()
session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(user.pk), "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print(json.dumps({"session": session.session_key, "games": [[g.pk, g.get_absolute_url()] for g in games]}))
"""

# Times one save: the tap, the first change to the scoreboard's totals, and the server's answer swapped in.
WATCH_SAVE = """() => {
  const t = {};
  window.benchSave = t;
  const save = document.querySelector("#hand button.save");
  save.addEventListener("click", () => { t.tap = performance.now(); }, { capture: true, once: true });
  const inBoard = (node) => (node.nodeType === 1 ? node : node.parentElement)?.closest(".scoreboard");
  const observer = new MutationObserver((records) => {
    if (t.tap && !t.board && records.some((r) => inBoard(r.target) || [...r.addedNodes].some((n) => n.id === "scoreboard"))) {
      t.board = performance.now();
    }
  });
  observer.observe(document.getElementById("live"), { subtree: true, childList: true, characterData: true });
  document.body.addEventListener("htmx:afterSwap", () => { t.server ??= performance.now(); observer.disconnect(); }, { once: true });
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


def tap_hand(page, number: int) -> None:
    pitcher = ["Ann", "Bob", "Cat", "Dan"][number % 4]
    for group, label in (
        ("Pitcher", pitcher),
        ("Bid", "2"),
        ("High", pitcher),
        ("Low", pitcher),
        ("Jack", "Not in play"),
        ("Game", "Tied"),
    ):
        page.get_by_role("group", name=group, exact=True).get_by_text(label, exact=True).click()


def poll(page, expression: str, timeout: float = 30.0):
    """Polls an expression in the page (the app's CSP refuses ``wait_for_function``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.02)
    raise TimeoutError(expression)


def run(out: Path, budget: Callable[[str, str, str, bool | None], None], production_env: dict[str, str]) -> None:
    from playwright.sync_api import sync_playwright

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
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", MOBILE)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})

            # First load: what the browser fetched for the game page.
            page.goto(BASE + taps_url)
            page.wait_for_load_state("networkidle")
            resources = page.evaluate("performance.getEntriesByType('resource').map((e) => [e.name, e.encodedBodySize])")
            html = page.request.get(BASE + taps_url).body()
            worker = page.request.get(BASE + "/sw.js").body()
            static_bytes = sum(size for _name, size in resources)
            first_load = len(gzip.compress(html)) + len(gzip.compress(worker)) + static_bytes
            budget(
                "Game page first load in the browser (phone, new game), with the service worker",
                f"{first_load / 1024:.1f} KB (HTML {len(gzip.compress(html)) / 1024:.1f} KB gzip, {len(resources)} files "
                f"{static_bytes / 1024:.1f} KB, sw.js {len(gzip.compress(worker)) / 1024:.1f} KB)",
                "< 80 KB",
                first_load < 80 * 1024,
            )

            # Tap to scoreboard updated, online.
            board, server_ms = [], []
            for number in range(1, TAPS + 1):
                tap_hand(page, number)
                page.evaluate(WATCH_SAVE)
                page.get_by_role("button", name="Save hand").click()
                t = poll(page, "window.benchSave.server && window.benchSave.board ? window.benchSave : null")
                poll(page, f"document.querySelector('#hand #id_number')?.value === '{number + 1}'")
                if number > WARMUP:
                    board.append(t["board"] - t["tap"])
                    server_ms.append(t["server"] - t["tap"])
            ok = p95(board) <= 50
            budget(
                "Tap to scoreboard updated, Chromium as a phone (150 ms RTT, 1.6/0.75 Mbit/s, 4x CPU slowdown)",
                f"p95 **{p95(board):.0f} ms** (median {statistics.median(board):.0f} ms, {len(board)} taps); "
                f"today's way, the server's answer: p95 {p95(server_ms):.0f} ms (median {statistics.median(server_ms):.0f} ms)",
                "p95 <= 50 ms",
                ok,
            )

            # Sync: 20 hands saved offline, then the network back.
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
        server.terminate()
        server.wait(10)
        log.close()
