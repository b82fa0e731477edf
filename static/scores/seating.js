// New game: players sit in the order they are picked. Picking a player (or typing a new name)
// gives them the next free seat; un-picking frees it. Without JavaScript the seat menus still work.
//
// The script may start after the person has already ticked or typed (a slow phone, a deferred
// script): rows filled by then get their seats in list order when it starts, exactly where the
// server would seat unnumbered rows, so the seating never depends on when the script ran.
// A "Seating" list shows who sits where, in which team, and who deals first before "Start game":
// the server says it (htmx), from the form as it stands, by the rule it starts the game with.
(() => {
  const form = document.querySelector("form.new-game");
  if (!form) return;
  const rows = () => [...form.querySelectorAll(".seat-row")];
  const seatOf = (row) => row.querySelector("select.seat-select");
  const entryOf = (row) => row.querySelector("input[type=checkbox], input[type=text]");
  const filled = (row) => {
    const entry = entryOf(row);
    return entry.type === "checkbox" ? entry.checked : entry.value.trim() !== "";
  };
  const nextFree = () => {
    const taken = new Set(rows().map((row) => seatOf(row).value).filter(Boolean));
    const seats = [...seatOf(rows()[0]).options].map((option) => option.value).filter(Boolean);
    return seats.find((seat) => !taken.has(seat)) || "";
  };
  const place = (row) => {
    const seat = seatOf(row);
    if (!filled(row)) seat.value = "";
    else if (!seat.value) seat.value = nextFree();
  };
  const preview = form.querySelector(".seating-preview");
  const show = () => {
    if (!preview || !window.htmx) return;
    preview.hidden = false;
    htmx.trigger(preview.querySelector(".seating"), "seating-changed");
  };

  rows().forEach(place); // Whatever was filled before the script started, in list order.
  // htmx listens for the ask once it has read the page, when the document is parsed: not before.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
  const update = (event) => {
    const row = event.target.closest(".seat-row");
    if (row && !event.target.matches("select")) place(row);
    show();
  };
  form.addEventListener("input", update);
  form.addEventListener("change", update);
})();
