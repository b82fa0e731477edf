// New game: players sit in the order they are picked. Picking a player (or typing a new name)
// gives them the next free seat; un-picking frees it. Without JavaScript the seat menus still work.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form.new-game");
  if (!form) return;
  const seatOf = (input) => input.closest(".seat-row").querySelector("select.seat-select");
  const nextFree = () => {
    const taken = new Set([...form.querySelectorAll("select.seat-select")].map((s) => s.value).filter(Boolean));
    for (let seat = 1; seat <= 7; seat++) if (!taken.has(String(seat))) return String(seat);
    return "";
  };
  form.addEventListener("change", (event) => {
    const input = event.target;
    if (!input.closest(".seat-row") || input.matches("select")) return;
    const picked = input.type === "checkbox" ? input.checked : input.value.trim() !== "";
    const seat = seatOf(input);
    if (picked && !seat.value) seat.value = nextFree();
    if (!picked) seat.value = "";
  });
});
