// One place for the notices a page shows, so that none is shown twice and an old one never stays beside a new one: on
// the game page the notice line at the top of the scoreboard (in view while the form is used; the server's answer brings
// its own notice there, or none), elsewhere the line under the menu. The newest notice replaces the one before.
// offline.js sends its notices here as a "notice" event. The texts come from the JavaScript catalog (gettext).
const noticeLine = () => document.querySelector("#scoreboard .notice") || document.getElementById("connection-status");
function notify(text) {
  const line = noticeLine();
  if (!line) return;
  line.textContent = text;
  line.hidden = !text;
}
document.addEventListener("notice", (event) => notify(event.detail));

// Tell the player when a tap did not reach the server or the server failed, instead of failing silently; saving
// again is safe, since each hand form carries its own key. The next answer that comes takes the notice away.
let failure = "";
const failed = (text) => {
  failure = text;
  notify(text);
};
document.addEventListener("DOMContentLoaded", () => {
  document.body.addEventListener("htmx:sendError", (event) => {
    // Offline, the game page's queue keeps a hand that was on its way and says so (offline.js): nothing to tap again.
    if (!navigator.onLine && event.detail.elt.id === "hand" && document.getElementById("offline")) return;
    failed(gettext("No answer from the server: check the connection and tap again. A hand saved twice is stored once."));
  });
  document.body.addEventListener("htmx:responseError", () => failed(gettext("The server could not do that just now. Tap again in a moment.")));
  document.body.addEventListener("htmx:afterSwap", () => {
    if (failure && noticeLine()?.textContent === failure) notify("");
    failure = "";
  });
});

// A hand saved with htmx answers with the scoreboard only (the buttons are the same for every hand):
// clear the taps and any message left from an earlier refused save, ready for the next hand.
document.addEventListener("hand-saved", () => {
  document.getElementById("restore")?.remove(); // A new hand took the undone one's place.
  const form = document.getElementById("hand");
  if (!form) return;
  form.querySelectorAll("input[type=radio]:checked").forEach((input) => {
    input.checked = false;
  });
  form.querySelectorAll(".invalid-feedback, .alert-danger").forEach((message) => message.remove());
  form.querySelectorAll(".is-invalid").forEach((group) => {
    group.classList.remove("is-invalid");
    group.removeAttribute("aria-describedby");
  });
});

// "Rest to…" (games of more than four points): one tap gives every point row not tapped yet to a side. It only taps
// buttons; the server checks every point as ever. Shown by the script, which it needs.
const offerRest = () => document.querySelectorAll(".rest-to[hidden]").forEach((rest) => { rest.hidden = false; });
document.addEventListener("DOMContentLoaded", offerRest);
document.addEventListener("htmx:afterSettle", offerRest); // A whole new form came back.
document.addEventListener("click", (event) => {
  const toggle = event.target.closest(".rest-to-toggle");
  const sides = toggle?.parentElement.querySelector(".rest-to-sides");
  if (sides) {
    sides.hidden = !sides.hidden;
    toggle.setAttribute("aria-expanded", String(!sides.hidden));
    return;
  }
  const pick = event.target.closest("[data-rest-to]");
  if (!pick) return;
  for (const row of pick.form.querySelectorAll("fieldset[data-point]")) {
    if (row.querySelector("input:checked")) continue;
    const input = [...row.querySelectorAll("input[type=radio]")].find((radio) => radio.value === pick.dataset.restTo);
    if (input) input.checked = true;
  }
  const rest = pick.closest(".rest-to");
  rest.querySelector(".rest-to-sides").hidden = true;
  rest.querySelector(".rest-to-toggle").setAttribute("aria-expanded", "false");
});

// After a save, undo, restore, edit or delete, the next hand can start at once: the scores in view and, below the
// scoreboard (which sticks to the top only inside the live part), the first row of the hand form. When the page
// does not show them so (a notice, the header, a small screen), the live part comes to the top of the screen.
function nextHandIntoView() {
  const live = document.getElementById("live");
  const board = document.getElementById("scoreboard");
  if (!live || !board) return;
  const scores = board.getBoundingClientRect();
  const first = document.querySelector("#hand fieldset.taps")?.getBoundingClientRect();
  const hidden = first ? first.top < scores.bottom || first.bottom > window.innerHeight : scores.bottom > window.innerHeight;
  if (scores.top < 0 || hidden) live.scrollIntoView({ block: "start", behavior: "instant" });
}
document.addEventListener("hand-saved", nextHandIntoView);
document.addEventListener("DOMContentLoaded", nextHandIntoView); // Back from an edit or a delete, its notice shown.

// After an undo, "Restore" puts the hand back for a few seconds (its data-seconds; app.css shows the time running out).
const offerRestore = () => {
  const restore = document.getElementById("restore");
  if (!restore || restore.dataset.timed) return;
  restore.dataset.timed = "true";
  setTimeout(() => restore.remove(), Number(restore.dataset.seconds) * 1000);
};
document.addEventListener("DOMContentLoaded", offerRestore);
document.addEventListener("htmx:afterSettle", offerRestore);

// After an htmx answer, the eye is where it was: bring the first error (or a notice such as "another phone saved
// that hand first") into view and focus it, so it is seen and read out.
// A notice is in the scoreboard, so in view with the next hand's first row.
document.addEventListener("htmx:afterSettle", () => {
  const problem = document.querySelector("#hand .is-invalid, #hand .alert-danger, #scoreboard .notice:not([hidden])");
  if (!problem || problem.matches(".notice")) nextHandIntoView();
  if (!problem) return;
  if (!problem.hasAttribute("tabindex")) problem.setAttribute("tabindex", "-1");
  if (!problem.matches(".notice")) problem.scrollIntoView({ block: "center" });
  problem.focus({ preventScroll: true });
});

// The auction in place: the panel (htmx) offers only the bids the server allows; when it is over, its result
// fills in the hand form's auction, pitcher and bid, and is saved with the hand in one request.
document.addEventListener("htmx:afterSettle", (event) => {
  const result = event.target.querySelector ? event.target.querySelector("[data-auction-result]") : null;
  const form = document.getElementById("hand");
  if (!result || !form) return;
  form.querySelector("input[name=auction]").value = result.dataset.auctionResult;
  for (const [name, value] of [["pitcher", result.dataset.pitcher], ["bid", result.dataset.bid]]) {
    const input = [...form.querySelectorAll(`input[name=${name}]`)].find((radio) => radio.value === value);
    if (input) input.checked = true;
  }
});

// Installable: the service worker caches the static files.
if ("serviceWorker" in navigator && document.body.dataset.serviceWorker) {
  navigator.serviceWorker.register(document.body.dataset.serviceWorker, { scope: "/" }).catch(() => {});
}

document.addEventListener("DOMContentLoaded", () => {
  // "Keep screen on" while a game is open, where the browser has the Screen Wake Lock API; on by default.
  const toggle = document.getElementById("keep-screen-on");
  if (toggle && "wakeLock" in navigator) {
    toggle.closest(".wake-lock").hidden = false;
    let lock = null;
    const apply = async () => {
      if (toggle.checked && !lock && document.visibilityState === "visible") {
        try {
          lock = await navigator.wakeLock.request("screen");
          lock.addEventListener("release", () => { lock = null; });
        } catch {
          lock = null; // Refused (battery saver, no permission): the screen sleeps as usual.
        }
      } else if (!toggle.checked && lock) {
        await lock.release();
      }
    };
    toggle.addEventListener("change", apply);
    document.addEventListener("visibilitychange", apply); // The lock ends when the page is hidden.
    apply();
  }
  // The watch link: a copy button and the system share sheet, where the browser has them.
  const copy = document.querySelector(".copy-link");
  if (copy && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", async () => {
      await navigator.clipboard.writeText(copy.dataset.copy);
      copy.textContent = gettext("Copied");
    });
  }
  // A finished game's result in words: the share sheet, else the clipboard.
  const result = document.querySelector(".share-result");
  if (result && (navigator.share || navigator.clipboard)) {
    result.hidden = false;
    result.addEventListener("click", async () => {
      if (navigator.share) {
        navigator.share({ text: result.dataset.text }).catch(() => {});
        return;
      }
      await navigator.clipboard.writeText(result.dataset.text);
      result.textContent = gettext("Copied");
    });
  }
  const share = document.querySelector(".share-link");
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener("click", () => navigator.share({ title: share.dataset.title, url: share.dataset.share }).catch(() => {}));
  }
});

// A page to print (a card night's table cards and score sheets) offers the browser's print dialog; without
// JavaScript the button stays hidden and the browser's own menu prints it.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("button[data-print]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  });
});
