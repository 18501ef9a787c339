// tikal's service worker (docs/web.md, Call-backs): the static files (scripts, styles,
// icons, sounds) are kept for the next visit and served from the cache first; pages, the
// API and the WebSockets always go to the server (a game needs it). The cache is named by
// the package version, so an update replaces it. The server fills in VERSION and ASSETS.
const CACHE = "tikal-static-__VERSION__";
const ASSETS = __ASSETS__;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("tikal-static-") && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !url.pathname.startsWith("/static/")) return;
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(event.request).then((hit) => hit || fetch(event.request).then((answer) => {
    if (answer.ok) cache.put(event.request, answer.clone());
    return answer;
  }))));
});
