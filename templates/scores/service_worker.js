{% autoescape off %}// Pitch League's service worker: the static files from the cache, everything else from the network.
const CACHE = "pitch-static-{{ version }}";
// The scripts' texts, one catalog a language (its code in the URL): kept like the static files, but always asked of the
// network first, as their URLs carry no hash of their content.
const CATALOGS = [{% for url in catalogs %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const PRECACHE = [{% for url in urls %}"{{ url|escapejs }}", {% endfor %}...CATALOGS];
const STATIC_PREFIX = "{{ static_prefix|escapejs }}";
const IMMUTABLE = {{ immutable|yesno:"true,false" }}; // Hashed file names: a cached file is never stale.

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // An older deployment's files are dropped.
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("pitch-static-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const catalog = CATALOGS.includes(url.pathname);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !(catalog || url.pathname.startsWith(STATIC_PREFIX))) return;
  const fromNetwork = (cache) => fetch(event.request).then((response) => {
    if (response.ok) cache.put(event.request, response.clone());
    return response;
  });
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      IMMUTABLE && !catalog
        ? cache.match(event.request).then((hit) => hit || fromNetwork(cache))
        : fromNetwork(cache).catch(() => cache.match(event.request).then((hit) => hit || Response.error())),
    ),
  );
});

// Offline at the table: a game page comes from the network when there is one, and is kept; without a
// network, the kept copy is served, so a reload shows the game and its queue (static/scores/offline.js). Only
// whole pages are kept (not htmx's fragments), and only game pages.
const PAGES = "pitch-pages";
const GAME_PAGE = /^\/leagues\/[^/]+\/games\/\d+\/$/;

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !GAME_PAGE.test(url.pathname) || request.headers.get("HX-Request")) return;
  event.respondWith(
    fetch(request).then((response) => {
      if (response.ok && !response.redirected) {
        const copy = response.clone();
        event.waitUntil(caches.open(PAGES).then((cache) => cache.put(url.pathname, copy)));
      }
      return response;
    }).catch(() => caches.open(PAGES).then((cache) => cache.match(url.pathname)).then((hit) => hit || Response.error())),
  );
});

// Logging out forgets the kept game pages: the next person on this phone does not see them offline.
self.addEventListener("fetch", (event) => {
  if (event.request.method === "POST" && new URL(event.request.url).pathname === "{% url 'logout' %}") event.waitUntil(caches.delete(PAGES));
});
{% endautoescape %}
