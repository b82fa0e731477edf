// New game: show a field only for the choice it belongs to, and pick league players by typing.
// Without JavaScript every field shows and the whole list of players is there; the server ignores a field its choice
// does not read (NewGameForm.clean).
(() => {
  const form = document.querySelector("form.new-game");
  if (!form) return;

  // data-shown-when="mode=partnership": shown while that radio button is picked. A hidden field's inputs are
  // disabled too, so what is left in them is not sent.
  const blocks = [...form.querySelectorAll("[data-shown-when]")];
  const picked = (name) => form.querySelector(`input[name="${name}"]:checked`)?.value;
  const apply = (event) => {
    for (const block of blocks) {
      const [name, value] = block.dataset.shownWhen.split("=");
      const shown = picked(name) === value;
      const appears = shown && block.hidden;
      block.hidden = !shown;
      block.querySelectorAll("input, select").forEach((input) => { input.disabled = !shown; });
      // Picked just now: the field it opened is the next thing to fill in (the target; team names have their defaults).
      if (appears && event?.target?.name === name && block.matches(".other-target")) block.querySelector("input").focus();
    }
  };
  apply();
  form.addEventListener("change", (event) => {
    if (event.target.matches("input[type=radio]")) apply(event);
  });

  // Type-ahead: the list narrows to the players whose name holds what is typed (without case or accents); a whole
  // name (picked from the suggestions, or the only one left on Enter) seats that player and clears the box.
  const finder = form.querySelector(".player-finder");
  if (!finder) return;
  const search = finder.querySelector("input");
  const rows = [...form.querySelectorAll(".league-player")];
  const plain = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase().trim();
  const boxOf = (row) => row.querySelector("input[type=checkbox]");
  const matching = () => rows.filter((row) => plain(row.dataset.name).includes(plain(search.value)));
  const narrow = () => {
    const shown = new Set(matching());
    for (const row of rows) row.hidden = !(shown.has(row) || boxOf(row).checked); // Who is picked stays in view.
  };
  const pick = (row) => {
    const box = boxOf(row);
    if (!box.checked) {
      box.checked = true;
      box.dispatchEvent(new Event("change", { bubbles: true })); // seating.js gives the next free seat.
    }
    search.value = "";
    narrow();
  };
  finder.hidden = false;
  search.addEventListener("input", (event) => {
    event.stopPropagation(); // Not a player row: seating.js has nothing to do.
    const whole = rows.find((row) => plain(row.dataset.name) === plain(search.value));
    if (whole && event.inputType !== "insertText" && event.inputType !== "deleteContentBackward") pick(whole); // A suggestion picked.
    else narrow();
  });
  search.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault(); // Enter picks; it does not start the game.
    const left = matching();
    const whole = left.find((row) => plain(row.dataset.name) === plain(search.value));
    if (whole || left.length === 1) pick(whole || left[0]);
  });
})();
