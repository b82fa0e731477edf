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

// Offline at the table: a game page opened comes from the network when there is one, and is kept; without a
// network, the kept copy is served, so a reload shows the game and its queue (static/scores/offline.js). Only a
// game page opened (a navigation) is kept or served so: a script asking for the game (offline.js after a sync, htmx)
// wants the server's as it is now, so its request goes to the network as the page's own, never to the kept copy.
const PAGES = "pitch-pages";
const GAME_PAGE = /^\/leagues\/[^/]+\/games\/\d+\/$/;
// A kept page is shown only to the account that kept it. Every page says whose it is (the header below, from
// scores.accounts.offline_pages): when a page comes for another account than the last one (a log-in, a session that
// ended without "Log out": cookies cleared, expired, its password changed elsewhere), the pages kept for the last one
// are dropped, and a kept page is served only if it is the last account's.
const ACCOUNT_HEADER = "{{ account_header|escapejs }}";
const ACCOUNT = "/.account"; // In PAGES: the account the last page was for.

function noteAccount(response) {
  const account = response.headers.get(ACCOUNT_HEADER);
  if (!account) return Promise.resolve(); // A redirect, or not a page.
  return caches.open(PAGES).then(async (cache) => {
    const last = await cache.match(ACCOUNT);
    if (last && (await last.text()) === account) return;
    await Promise.all((await cache.keys()).map((request) => cache.delete(request)));
    await cache.put(ACCOUNT, new Response(account));
  });
}

function keptFor(pathname) {
  return caches.open(PAGES).then(async (cache) => {
    const [hit, last] = await Promise.all([cache.match(pathname), cache.match(ACCOUNT)]);
    const account = last && (await last.text());
    return hit && account && hit.headers.get(ACCOUNT_HEADER) === account ? hit : Response.error();
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.mode !== "navigate" || request.method !== "GET" || url.origin !== self.location.origin || !GAME_PAGE.test(url.pathname)) return;
  event.respondWith(
    fetch(request).then((response) => {
      const copy = response.ok && !response.redirected ? response.clone() : null;
      event.waitUntil(noteAccount(response).then(() => copy && caches.open(PAGES).then((cache) => cache.put(url.pathname, copy))));
      return response;
    }).catch(() => keptFor(url.pathname)),
  );
});

// Every other page opened goes through the worker too, so it hears which account the page was for.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.mode !== "navigate" || request.method !== "GET" || GAME_PAGE.test(url.pathname) || url.pathname.startsWith(STATIC_PREFIX)) return;
  event.respondWith(fetch(request).then((response) => {
    event.waitUntil(noteAccount(response));
    return response;
  }));
});

// Logging out forgets the kept game pages: the next person on this phone does not see them offline.
self.addEventListener("fetch", (event) => {
  if (event.request.method === "POST" && new URL(event.request.url).pathname === "{% url 'logout' %}") event.waitUntil(caches.delete(PAGES));
});
{% endautoescape %}
