// The game page at the table: the scoreboard moves at once on "Save hand", and scoring goes on without a network.
// The hand is scored here by scorer.js (a mirror of scores/engine/rules.py); the server scores it again and its answer
// wins: online, the htmx answer replaces the scoreboard (and this says so where it differs); offline, the hand waits
// in a queue in IndexedDB, with its idempotency key and number, and is sent in order when the network is back (a
// resend stores nothing twice). A hand the server will not take (another phone saved that number first, or the game
// is over) stays in a "Not synced" list until it is discarded or saved as the next hand.
// The game comes from the page's json_script (the table, its rules and the deal's rotation, as rules.py has them);
// every word shown comes from the JavaScript catalog (gettext), in the page's language.
import { scoreHand } from "./scorer.js";

const box = document.getElementById("offline");
const GAME = box?.dataset.syncUrl; // The queue is kept per game.
const NOT_IN_PLAY = "-"; // A point's button for "Not in play" (for Game: "Tied").
let queue = []; // This game's queued hands, oldest first; IndexedDB holds the same.
let pending = null; // An online save in flight: what this phone showed for it.
let editing = null; // The waiting hand the form is editing.
let syncing = false;
let wasMarked = false; // The scoreboard shows waiting hands: this page changed it.

const fill = (text, values) => interpolate(text, values, true); // The catalog's texts name their values: %(number)s.
// Parsed once per scoreboard, not on every tap: each answer that changes the game brings a new #scorer-state element.
let parsed = { element: null, value: null };
const state = () => {
  const element = document.getElementById("scorer-state");
  if (parsed.element !== element) parsed = { element, value: JSON.parse(element.textContent) };
  return parsed.value;
};
const waiting = () => queue.filter((hand) => hand.status === "waiting");
const form = () => document.getElementById("hand");

// IndexedDB: one store of hands keyed by their idempotency key, so a hand is never queued twice.
let opened = null;
function store(mode, operation) {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open("pitch-offline", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("hands", { keyPath: "key" }).createIndex("game", "game");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened.then((db) => new Promise((resolve, reject) => {
    const transaction = db.transaction("hands", mode);
    const request = operation(transaction.objectStore("hands"));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  }));
}
const save = (hand) => store("readwrite", (hands) => hands.put(hand));
const drop = (hand) => {
  queue = queue.filter((other) => other.key !== hand.key);
  return store("readwrite", (hands) => hands.delete(hand.key));
};

/** The hand the form holds, or null while a tap is missing: its pitcher, bid and a row per point of the game. */
function readForm(base = state()) {
  const element = form();
  if (!element) return null;
  const fields = {};
  for (const name of ["pitcher", "bid", ...base.rules.points]) {
    const input = element.querySelector(`input[name=${name}]:checked`);
    if (!input) return null;
    fields[name] = input.value;
  }
  fields.auction = element.querySelector("input[name=auction]")?.value || "";
  return { key: element.querySelector("#id_key").value, number: Number(element.querySelector("#id_number").value), fields };
}

/** The form's taps as a hand for scorer.js and the server: {pitcher, bid, points: {key: side or null}}. */
const asHand = (fields, rules) => ({
  pitcher: fields.pitcher,
  bid: Number(fields.bid),
  points: Object.fromEntries(rules.points.map((key) => [key, fields[key] === undefined || fields[key] === NOT_IN_PLAY ? null : fields[key]])),
});

/** Who deals once `hands` more hands are played after `dealer` deals, and who bids first then: the table's rotation. */
export function dealing(table, dealer, hands) {
  for (let i = 0; i < hands; i++) dealer = table.next_dealer[dealer];
  return { dealer, firstBidder: table.first_bidder[dealer] };
}

/** The page's notice (app.js has one place for them): this replaces whatever notice is shown, the server's too. */
const say = (text) => document.dispatchEvent(new CustomEvent("notice", { detail: text }));
const handLabel = (number) => fill(gettext("Hand %(number)s"), { number });
const pitched = (fields) => fill(gettext("%(pitcher)s bid %(bid)s"), { pitcher: fields.pitcher, bid: fields.bid });
const waitingBadge = () => pgettext("hand not stored yet", "waiting");
const corrected = (number) => fill(gettext("The server scored hand %(number)s differently from this phone: its scores are shown."), { number });

/** The server's game with the waiting hands scored on top of it: each one's result, and where the game ends up. */
function scoreWaiting() {
  const base = state();
  let totals = { ...base.totals };
  let winner = null;
  const scored = [];
  for (const hand of waiting()) {
    const result = scoreHand(base, asHand(hand.fields, base.rules), totals, base.number + scored.length);
    if (result.errors) continue; // Only complete hands are queued; the server has the last word anyway.
    scored.push({ hand, result });
    totals = result.totals;
    winner = winner || result.winner;
  }
  return { base, scored, totals, next: dealing(base, base.dealer, scored.length), winner, number: base.number + scored.length };
}

/** Show the scores as this phone has them: totals, next hand, waiting rows, the status line and "Not synced". */
function render() {
  const { base, scored, totals, next, winner, number } = scoreWaiting();
  const marked = scored.length > 0;
  const shown = marked || wasMarked; // The last waiting hand undone: back to the server's scores.
  wasMarked = marked;
  showTotals(shown ? totals : null, marked);
  showLast(marked ? scored.at(-1) : null, totals, winner);
  const line = document.querySelector("#scoreboard .next-hand");
  if (line && shown) {
    line.replaceChildren(Object.assign(document.createElement("strong"), { textContent: handLabel(number) }));
    // After a winning hand, who deals next is moot: the server says who won once the hand is stored.
    const deals = gettext("%(dealer)s deals, %(first_bidder)s bids first");
    if (!winner) line.append(" · ", fill(deals, { dealer: next.dealer, first_bidder: next.firstBidder }));
  }
  const body = document.getElementById("history-body");
  body.querySelectorAll("tr.waiting").forEach((row) => row.remove());
  const empty = body.querySelector("td[colspan]");
  if (empty) empty.parentElement.hidden = marked;
  // The newest first, as the server lists the stored hands.
  scored.forEach(({ hand, result }, i) => body.prepend(waitingRow(base, hand, result, i === scored.length - 1)));
  const element = form();
  if (element && !editing) element.querySelector("#id_number").value = number;
  const count = scored.length;
  const counted = fill(ngettext("%(count)s hand waiting to sync", "%(count)s hands waiting to sync", count), { count });
  let status = count ? [navigator.onLine ? gettext("Syncing") : gettext("Offline"), counted].join(" · ") : "";
  if (!count && !navigator.onLine) status = gettext("Offline: the hands you save are kept on this phone and sent when the connection is back.");
  const statusLine = box.querySelector(".offline-status");
  statusLine.textContent = status;
  statusLine.hidden = !status;
  const failed = queue.filter((hand) => hand.status === "not-synced");
  box.querySelector(".not-synced").hidden = !failed.length;
  box.querySelector(".not-synced-list").replaceChildren(...failed.map(notSyncedItem));
  box.hidden = !status && !failed.length;
  if (!syncing) box.dataset.sync = waiting().length ? "waiting" : "done";
}

let serverBoard = null; // The server's scoreboard as it was before hands waited on top of it.

/** The last hand on this phone, waiting or not: its line, each side's change, who leads and why a side at the target
 * has not won (scorer.js's notOut, as rules.py says it); with no hand waiting, the server's again. */
function showLast(last, totals, winner) {
  const board = document.getElementById("scoreboard");
  if (!last) {
    if (serverBoard) for (const part of [".result-line", ".not-out", ".scoreboard tbody"]) restorePart(board, serverBoard, part);
    serverBoard = null;
    return;
  }
  serverBoard ??= board.cloneNode(true);
  const { hand, result } = last;
  let line = board.querySelector(".result-line");
  if (!line) {
    line = Object.assign(document.createElement("p"), { className: "mb-1 result-line" });
    line.setAttribute("aria-live", "polite");
    board.querySelector(".next-hand")?.after(line);
  }
  const { pitcher, bid } = hand.fields;
  const change = result.delta[result.pitcherSide];
  const said = result.set
    ? fill(gettext("%(pitcher)s was set back %(bid)s"), { pitcher, bid })
    : fill(gettext("%(pitcher)s made %(bid)s, %(delta)s"), { pitcher, bid, delta: change >= 0 ? `+${change}` : `${change}` });
  line.replaceChildren(fill(gettext("Hand %(number)s:"), { number: hand.number }), " ", Object.assign(document.createElement("strong"), { textContent: said }));
  const best = Math.max(...Object.values(totals));
  for (const row of board.querySelectorAll(".scoreboard tr")) {
    const side = row.dataset.side;
    row.querySelector("td.delta")?.remove();
    const delta = result.delta[side];
    if (delta) row.append(Object.assign(document.createElement("td"), { className: `delta${delta < 0 ? " negative" : ""}`, textContent: delta > 0 ? `+${delta}` : `${delta}` }));
    const leads = winner ? side === winner : totals[side] === best;
    row.classList.toggle("leader", leads);
    const th = row.querySelector("th");
    th.querySelector(".visually-hidden")?.remove();
    if (leads) th.firstChild.after(" ", Object.assign(document.createElement("span"), { className: "visually-hidden", textContent: gettext("leads") }));
  }
  const reasons = {
    not_pitcher: gettext("%(side)s has %(total)s (the target is %(target)s) but did not pitch: only the pitcher's side goes out."),
    set: gettext("%(side)s has %(total)s (the target is %(target)s) but was set: by this game's house rules the pitcher goes out only by making the bid."),
  };
  const target = state().rules.target;
  board.querySelector(".not-out")?.replaceChildren(...Object.entries(result.notOut).map(([side, reason]) =>
    Object.assign(document.createElement("li"), { textContent: fill(reasons[reason], { side, total: totals[side], target }) })));
}

function restorePart(board, kept, selector) {
  const now = board.querySelector(selector);
  const was = kept.querySelector(selector);
  if (was) now ? now.replaceWith(was) : board.querySelector(".next-hand")?.after(was);
  else now?.remove();
}

/** The scoreboard's totals: this phone's (marked as waiting), or back to what the server sent. */
function showTotals(totals, waitingMark) {
  for (const row of document.querySelectorAll("#scoreboard .scoreboard tr")) {
    const side = row.dataset.side; // Not the name shown: in partnership play that has the partners too.
    const cell = row.querySelector(".total");
    if (totals) {
      cell.textContent = totals[side];
      cell.classList.toggle("negative", totals[side] < 0);
      if (waitingMark) cell.append(Object.assign(document.createElement("span"), { className: "delta badge text-bg-warning", textContent: waitingBadge() }));
    }
    row.classList.toggle("waiting", Boolean(totals && waitingMark));
  }
}

function waitingRow(base, hand, result, last) {
  const row = document.createElement("tr");
  row.className = "waiting table-warning";
  const number = Object.assign(document.createElement("td"), { textContent: hand.number });
  const what = document.createElement("td");
  what.append(pitched(hand.fields), " ");
  what.append(Object.assign(document.createElement("span"), { className: "badge text-bg-warning", textContent: waitingBadge() }));
  const actions = document.createElement("div");
  actions.append(button(gettext("Edit"), "btn btn-link btn-sm tap-link", () => edit(hand)));
  if (last) actions.append(button(gettext("Undo last hand"), "btn btn-link btn-sm tap-link text-danger", () => undo()));
  what.append(actions);
  row.append(number, what);
  for (const side of base.sides) {
    const cell = Object.assign(document.createElement("td"), { className: "text-end" });
    const delta = result.delta[side];
    cell.append(Object.assign(document.createElement("span"), { className: "small", textContent: delta >= 0 ? `+${delta}` : `${delta}` }));
    cell.append(document.createElement("br"), Object.assign(document.createElement("strong"), { textContent: result.totals[side] }));
    row.append(cell);
  }
  return row;
}

function notSyncedItem(hand) {
  const item = Object.assign(document.createElement("li"), { className: "border rounded p-2 mb-2" });
  item.append(Object.assign(document.createElement("strong"), { textContent: handLabel(hand.number) }));
  item.append(" · ", pitched(hand.fields));
  for (const message of hand.messages || []) item.append(Object.assign(document.createElement("div"), { className: "small text-danger", textContent: message }));
  const actions = Object.assign(document.createElement("div"), { className: "d-flex gap-2 mt-1" });
  actions.append(button(gettext("Save as the next hand"), "btn btn-success btn-sm", () => saveAsNext(hand)));
  actions.append(button(gettext("Discard"), "btn btn-outline-danger btn-sm", async () => { await drop(hand); render(); }));
  item.append(actions);
  return item;
}

function button(text, className, action) {
  const element = Object.assign(document.createElement("button"), { type: "button", className, textContent: text });
  element.addEventListener("click", action);
  return element;
}

/** A saved hand goes to the queue (or replaces the waiting hand being edited); the form is ready for the next. */
async function enqueue(hand) {
  const element = form();
  const known = queue.find((other) => other.key === hand.key);
  if (known && known !== editing) return; // A second tap on the same hand: it is queued once.
  const entry = known || { key: hand.key, game: GAME, number: hand.number, order: Date.now() + queue.length / 1000, status: "waiting" };
  entry.fields = hand.fields;
  if (!known) queue.push(entry);
  editing = null;
  element.querySelector("#id_key").value = crypto.randomUUID();
  document.dispatchEvent(new CustomEvent("hand-saved")); // app.js clears the taps.
  say("");
  render();
  await save(entry);
  sync();
}

function edit(hand) {
  const element = form();
  editing = hand;
  for (const [name, value] of Object.entries(hand.fields)) {
    const input = [...element.querySelectorAll(`input[name=${name}]`)].find((radio) => radio.value === value);
    if (input) input.checked = true;
  }
  element.querySelector("#id_key").value = hand.key;
  element.querySelector("#id_number").value = hand.number;
  say(fill(gettext("Editing hand %(number)s, which waits to sync."), { number: hand.number }));
  document.getElementById("live").scrollIntoView({ block: "start" }); // The form below the sticky scores.
}

async function undo() {
  const last = waiting().at(-1);
  if (!last) return;
  if (editing === last) editing = null;
  await drop(last);
  say(fill(gettext("Hand %(number)s was undone."), { number: last.number }));
  render();
}

async function saveAsNext(hand) {
  const { number } = scoreWaiting();
  // Under a new key and number: the server has never seen this hand as the next one.
  const entry = { ...hand, key: crypto.randomUUID(), number, order: Date.now(), status: "waiting", messages: [] };
  queue = queue.filter((other) => other !== hand).concat(entry);
  render();
  await drop(hand);
  await save(entry);
  sync();
}

/** Send the waiting hands in order; stop at the first the server will not take, or while the network is down. */
async function sync() {
  if (syncing || !navigator.onLine || !waiting().length) return;
  syncing = true;
  box.dataset.sync = "running";
  const { scored } = scoreWaiting();
  const changed = []; // Stored under another number or with other totals than this phone had.
  const stored = [];
  let unreachable = false;
  let answers = [];
  try {
    // In one request (up to the server's 100): the server takes them in order.
    answers = await send(scored.slice(0, 100).map(({ hand }) => hand));
  } catch {
    unreachable = true; // Still no connection, or the server failed: the hands wait for the next try.
  }
  for (const [i, answer] of answers.entries()) {
    const { hand, result } = scored[i];
    if (answer.status === "stored") {
      stored.push(hand);
      if (answer.number !== hand.number || Object.entries(answer.totals).some(([side, total]) => result.totals[side] !== total)) changed.push(answer.number);
      continue;
    }
    // Not taken: this hand and every one after it were scored on a game the server does not have. Kept, not forced in.
    for (const later of scored.slice(i).map((each) => each.hand)) {
      later.status = "not-synced";
      later.messages = later === hand ? answer.messages : [gettext("Not sent: a hand before it was not stored.")];
      await save(later);
    }
    break;
  }
  // The stored hands leave the queue only with the server's page that has them: until it comes they stay waiting (sent
  // again, they are stored once), so no moment shows a hand twice, or a game older than the server's answer.
  if ((stored.length || queue.some((hand) => hand.status === "not-synced")) && !(await refresh(stored))) unreachable = true;
  syncing = false;
  if (changed.length && !unreachable) say(corrected(changed.join(", ")));
  else if (unreachable) say(gettext("The server could not do that just now. Tap again in a moment."));
  render();
  box.dataset.sync = waiting().length ? "waiting" : "done";
  if (!unreachable && waiting().length) sync(); // Saved meanwhile.
}

async function send(hands) {
  const rules = state().rules;
  const queued = (hand) => ({ ...asHand(hand.fields, rules), auction: hand.fields.auction || "", number: hand.number, key: hand.key });
  const body = JSON.stringify({ hands: hands.map(queued) });
  const csrf = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  const headers = { "X-CSRFToken": csrf, "Content-Type": "application/json" };
  const response = await fetch(GAME, { method: "POST", body, headers, credentials: "same-origin" });
  if (!(response.headers.get("Content-Type") || "").startsWith("application/json")) throw new Error(`status ${response.status}`);
  return (await response.json()).results;
}

/**
 * The service worker keeps the game page as it was loaded; after a hand is stored, the page as it is now (the
 * server's scoreboard and history, the next hand's number and key) replaces that copy, so a reload offline starts
 * from the game as the server has it. Only with nothing waiting: the queue is IndexedDB's, not the page's.
 */
async function keepPage() {
  if (!("caches" in window) || waiting().length) return;
  const cache = await caches.open("pitch-pages");
  const kept = await cache.match(location.pathname);
  if (!kept) return;
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  await cache.put(location.pathname, new Response(`<!doctype html>\n${document.documentElement.outerHTML}`, { headers }));
}

/**
 * The game as the server has it now, from the network (the service worker leaves a script's request to it): its
 * scoreboard, hand form and history replace this phone's, and the `stored` hands leave the queue in the same step.
 * Whether the page came; if not, nothing changes.
 */
async function refresh(stored) {
  let page;
  try {
    const response = await fetch(location.pathname, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return false;
    page = new DOMParser().parseFromString(await response.text(), "text/html");
  } catch {
    return false;
  }
  const parts = ["live", "history"].map((id) => [document.getElementById(id), page.getElementById(id)]);
  if (parts.some(([, fresh]) => !fresh)) return false;
  for (const [now, fresh] of parts) now.replaceWith(fresh);
  const dropped = stored.map(drop);
  wasMarked = false; // The server's scoreboard, as it sent it.
  serverBoard = null;
  for (const [, fresh] of parts) window.htmx.process(fresh);
  await Promise.all(dropped);
  window.htmx.trigger(document.body, "scores-changed");
  await keepPage();
  return true;
}

/** Whether "Save hand" queues the hand instead of sending it: offline, or while hands wait (they stay in order). */
const queues = () => !navigator.onLine || waiting().length || editing;

function start() {
  // Online, the scoreboard moves at once and the server's answer confirms it: on the form's submit event, before
  // htmx's own work for the request, so the totals change in the tap's first moments.
  document.addEventListener("submit", (event) => {
    if (event.target.id !== "hand" || queues()) return;
    const base = state();
    const hand = readForm(base);
    const result = hand && !base.over ? scoreHand(base, asHand(hand.fields, base.rules), base.totals, base.number) : { errors: true };
    if (result.errors) return; // The server says what is wrong.
    pending = { hand, number: base.number, totals: result.totals };
    showTotals(result.totals, false);
  }, true);
  // Offline (or while hands wait) the hand is queued instead of sent.
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    const element = event.detail.elt;
    if (element.id === "undo" && waiting().length) {
      event.preventDefault();
      undo();
      return;
    }
    if (element.id !== "hand" || event.detail.requestConfig.verb !== "post" || !queues()) return;
    event.preventDefault();
    const hand = readForm();
    if (hand) enqueue(hand);
    else say(gettext("Tap the pitcher, the bid and who won each point, then save the hand."));
  });
  document.body.addEventListener("htmx:afterRequest", (event) => {
    // A whole live part in answer replaced the form: htmx then tells the form's nearest parent still on the page.
    const source = event.detail.requestConfig?.elt || event.detail.elt;
    if (source.id !== "hand" || !pending) return;
    const shown = pending;
    pending = null;
    if (!event.detail.xhr.status && !navigator.onLine) {
      enqueue(shown.hand); // The network went while the hand was on its way: it is queued, sent when it is back.
      return;
    }
    if (!event.detail.successful) {
      // No answer, or the server failed (app.js says so): the server's scores again; the same form and key, tapped again.
      showTotals(state().totals, false);
      return;
    }
    // Stored, but not as this phone scored it: said, unless the answer says why itself (another phone's hand took the
    // number, the game is over), which then stays the only notice; a refused hand's answer shows the form's errors.
    const now = state();
    const explained = document.querySelector("#scoreboard .notice:not([hidden])");
    const differs = Object.entries(now.totals).some(([side, total]) => shown.totals[side] !== total);
    if (!explained && now.number === shown.number + 1 && differs) say(corrected(shown.number));
    render();
    keepPage();
  });
  // What needs the server says so instead of failing: editing a stored hand, the auction.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("#history-body a[href], #auction-panel a[href]");
    if (!link || navigator.onLine) return;
    event.preventDefault();
    event.stopPropagation();
    say(gettext("Not available offline: editing a stored hand and the auction need the connection."));
  }, true);
  window.addEventListener("online", () => { say(""); render(); sync(); });
  window.addEventListener("offline", render);
  store("readonly", (hands) => hands.index("game").getAll(GAME)).then((hands) => {
    queue = hands.sort((a, b) => a.order - b.order);
    const key = form()?.querySelector("#id_key");
    if (key && queue.some((hand) => hand.key === key.value)) key.value = crypto.randomUUID(); // A page from the cache.
    render();
    box.dataset.ready = "true";
    sync();
  });
}

if (box) start();
