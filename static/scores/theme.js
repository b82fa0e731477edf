// The colours and the text size this phone was set to, on <html> before the page is drawn (loaded in <head>, not
// deferred, so a dark page never flashes white): kept per device in localStorage. "Colours: phone" (nothing kept)
// follows the phone's own light or dark setting, and changes with it. Bootstrap draws its dark colours for
// data-bs-theme="dark"; app.css takes its own from the same custom properties. Without JavaScript the page stays light
// at the normal size and the menu shows no switch.
const root = document.documentElement;
const phoneDark = matchMedia("(prefers-color-scheme: dark)");
const kept = (key) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // Storage refused (a private window): the phone's setting, the normal size.
  }
};
const keep = (key, value) => {
  try {
    if (value) localStorage.setItem(key, value);
    else localStorage.removeItem(key);
  } catch {
    // Not kept: it still holds on this page.
  }
};
function apply() {
  const colours = kept("pitch-colours") || "phone";
  root.dataset.bsTheme = colours === "phone" ? (phoneDark.matches ? "dark" : "light") : colours;
  root.classList.toggle("text-large", kept("pitch-text") === "large");
  for (const button of document.querySelectorAll("[data-colours]")) {
    button.setAttribute("aria-pressed", String(button.dataset.colours === colours));
  }
  const large = document.querySelector("[data-text-large]");
  if (large) large.setAttribute("aria-pressed", String(root.classList.contains("text-large")));
}
apply();
phoneDark.addEventListener("change", apply);
addEventListener("storage", apply); // Another tab of this phone changed it.
document.addEventListener("DOMContentLoaded", () => {
  const switches = document.getElementById("display-settings");
  if (!switches) return;
  switches.hidden = false;
  switches.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.colours) keep("pitch-colours", button.dataset.colours === "phone" ? "" : button.dataset.colours);
    else keep("pitch-text", root.classList.contains("text-large") ? "" : "large");
    apply();
  });
  apply();
});
