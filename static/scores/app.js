// Tell the player when a tap did not reach the server or the server failed, instead of
// failing silently; saving again is safe, since each hand form carries its own key.
document.addEventListener("DOMContentLoaded", () => {
  const status = document.getElementById("connection-status");
  if (!status) return;
  const show = (text) => {
    status.textContent = text;
    status.hidden = false;
  };
  document.body.addEventListener("htmx:sendError", () => show(status.dataset.offline));
  document.body.addEventListener("htmx:responseError", () => show(status.dataset.failed));
  document.body.addEventListener("htmx:afterSwap", () => {
    status.hidden = true;
  });
});

// A hand saved with htmx answers with the scoreboard only (the buttons are the same for every hand):
// clear the taps and any message left from an earlier refused save, ready for the next hand.
document.addEventListener("hand-saved", () => {
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
