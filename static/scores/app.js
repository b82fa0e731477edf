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
