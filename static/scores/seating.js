// New game: players sit in the order they are picked. Picking a player (or typing a new name)
// gives them the next free seat; un-picking frees it. Without JavaScript the seat menus still work.
//
// The script may start after the person has already ticked or typed (a slow phone, a deferred
// script): rows filled by then get their seats in list order when it starts, exactly where the
// server would seat unnumbered rows, so the seating never depends on when the script ran.
// A "Seating" list shows who sits where, in which team, and who deals first before "Start game".
import { partners } from "./scorer.js";

(() => {
  const form = document.querySelector("form.new-game");
  if (!form) return;
  const rows = () => [...form.querySelectorAll(".seat-row")];
  const seatOf = (row) => row.querySelector("select.seat-select");
  const entryOf = (row) => row.querySelector("input[type=checkbox], input[type=text]");
  const nameOf = (row) => {
    const entry = entryOf(row);
    if (entry.type === "checkbox") return entry.checked ? form.querySelector(`label[for="${entry.id}"]`).textContent.trim() : "";
    return entry.value.trim();
  };
  const nextFree = () => {
    const taken = new Set(rows().map((row) => seatOf(row).value).filter(Boolean));
    for (let seat = 1; seat <= 7; seat++) if (!taken.has(String(seat))) return String(seat);
    return "";
  };
  const place = (row) => {
    const seat = seatOf(row);
    if (!nameOf(row)) seat.value = "";
    else if (!seat.value) seat.value = nextFree();
  };

  // The server's rule (NewGameForm.clean): numbered players by number, then the others in list order.
  const seating = () => {
    const chosen = rows()
      .map((row, index) => ({ name: nameOf(row), seat: Number(seatOf(row).value) || null, index }))
      .filter((entry) => entry.name);
    const numbered = chosen.filter((e) => e.seat !== null).sort((a, b) => a.seat - b.seat || a.index - b.index);
    return [...numbered, ...chosen.filter((e) => e.seat === null)].map((e) => e.name);
  };
  const preview = form.querySelector(".seating-preview");
  const dealer = form.querySelector("select[name=first_dealer]");
  // In teams ("3x2": 3 teams of 2): the seat's team where the rules seat partners, from the scorer (checked against rules.py).
  const teamOf = (index) => {
    const teams = Number((form.querySelector("input[name=mode]:checked")?.value || "").split("x")[0]) || 0;
    if (!teams) return "";
    const team = partners([...Array(index + 1).keys()], teams).findIndex((seats) => seats.includes(index));
    const field = form.querySelector(`input[name=team${team + 1}]`);
    return field ? field.value.trim() : "";
  };
  const show = () => {
    if (!preview) return;
    const names = seating();
    const list = preview.querySelector("ul");
    list.replaceChildren(
      ...names.map((name, i) => {
        const item = document.createElement("li");
        const deals = Number(dealer?.value) === i + 1;
        const team = teamOf(i);
        let text = deals ? gettext("Seat %(number)s: %(name)s, deals first") : gettext("Seat %(number)s: %(name)s");
        if (team) text = deals ? gettext("Seat %(number)s: %(name)s (%(team)s), deals first") : gettext("Seat %(number)s: %(name)s (%(team)s)");
        item.textContent = interpolate(text, { number: i + 1, name, team }, true);
        return item;
      }),
    );
    preview.querySelector(".seating-empty").hidden = names.length > 0;
    preview.hidden = false;
  };

  rows().forEach(place); // Whatever was filled before the script started, in list order.
  show();
  const update = (event) => {
    const row = event.target.closest(".seat-row");
    if (row && !event.target.matches("select")) place(row);
    show();
  };
  form.addEventListener("input", update);
  form.addEventListener("change", update);
})();
