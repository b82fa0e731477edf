// A game's rules (the new-game page and the league's settings) and the new game's players: show a field only for the
// choice it belongs to, offer the minimum bids up to the game's total, and pick league players by typing.
// Without JavaScript every field shows and the whole list of players is there; the server ignores a field its choice
// does not read (RulesForm.clean, NewGameForm.clean) and refuses a minimum bid above the total.
(() => {
  for (const form of document.querySelectorAll("form.new-game, form.league-rules")) choices(form);
  players(document.querySelector("form.new-game"));

  function choices(form) {
    // data-shown-when="mode=2x2|3x2": shown while one of those radio buttons is picked. A hidden field's inputs are
    // disabled too, so what is left in them is not sent.
    const blocks = [...form.querySelectorAll("[data-shown-when]")];
    const picked = (name) => form.querySelector(`input[name="${name}"]:checked`)?.value;
    const line = form.querySelector(".rules-line");
    const apply = (event) => {
      for (const block of blocks) {
        const [name, values] = block.dataset.shownWhen.split("=");
        // Inside a block already hidden (a team's name while play is solo), hidden too.
        const shown = values.split("|").includes(picked(name)) && !block.parentElement.closest("[data-shown-when][hidden]");
        const appears = shown && block.hidden;
        block.hidden = !shown;
        block.querySelectorAll("input, select").forEach((input) => { input.disabled = !shown; });
        // Picked just now: the field it opened is the next thing to fill in (the target; team names have their defaults).
        if (appears && event?.target?.name === name && block.matches(".other-target")) block.querySelector("input").focus();
      }
      minimumBids();
    };
    // The bids go up to the game's total: a named variant's, or the points ticked for a custom game.
    const minimumBids = () => {
      const variant = form.querySelector("input[name=variant]:checked");
      const boxes = [...form.querySelectorAll("input[name=points]")];
      const custom = boxes.filter((box) => box.checked).reduce((sum, box) => sum + Number(box.dataset.value), 0);
      const total = variant?.dataset.total ? Number(variant.dataset.total) : custom;
      const output = form.querySelector(".custom-total");
      if (output) output.textContent = String(custom);
      if (!variant) return;
      for (const input of form.querySelectorAll("input[name=min_bid]")) {
        if (input.value === "usual") continue;
        const over = Number(input.value) > total;
        input.disabled = over;
        form.querySelector(`label[for="${input.id}"]`).hidden = over;
        if (over && input.checked) form.querySelector("input[name=min_bid][value=usual]").checked = true;
      }
    };
    // The rules line in the house rules' summary follows the choices (the server says it: htmx).
    const said = () => { if (line && window.htmx) htmx.trigger(line, "rules-changed"); };
    apply();
    // Back to the page (or a reload), the browser may put back earlier choices: the line then says those, not the defaults.
    const restored = () => [...form.querySelectorAll(".rules-fields input")].some((input) =>
      input.type === "radio" || input.type === "checkbox" ? input.checked !== input.defaultChecked : input.value !== input.defaultValue);
    window.addEventListener("pageshow", () => { if (restored()) { apply(); said(); } });
    form.addEventListener("change", (event) => {
      if (event.target.matches("input[type=radio], input[type=checkbox]")) apply(event);
      if (event.target.closest(".rules-fields")) said();
    });
    form.addEventListener("input", (event) => {
      if (event.target.name === "other_target") said();
    });
  }

  function players(form) {
    if (!form) return;
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
  }
})();
