// Offline support: after the first visit the app shell (index.html, hashed
// assets, the bundled demo) is served from this cache. Nothing else is ever
// cached — above all no user log: opened files never touch the network, and
// a `?url=` log fetch passes straight through.
const CACHE = 'dsh-devtools-shell-v1';
const scope = new URL(self.registration.scope);

function isShell(url) {
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return false;
  const rel = url.pathname.slice(scope.pathname.length);
  return rel === '' || rel === 'index.html' || rel.startsWith('assets/') || rel.startsWith('demo/');
}

// On install, cache the whole shell: index.html, every built file (listed in
// precache.json at build time) and the demo log, so the next visit works offline.
self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const files = await fetch(new URL('precache.json', scope)).then((r) => r.json()).catch(() => []);
    const urls = ['index.html', 'demo/demo-session.jsonl', 'demo/demo-session-subagent.jsonl', ...files.filter((f) => f !== 'index.html')].map((f) => new URL(f, scope).href);
    await Promise.all(urls.map((u) => fetch(u).then((r) => (r.ok ? cache.put(u, r) : undefined)).catch(() => undefined)));
    await self.skipWaiting();
  })());
});
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !isShell(url)) return; // not ours: the network, untouched
  const rel = url.pathname.slice(scope.pathname.length);
  const key = request.mode === 'navigate' || rel === '' ? new URL('index.html', scope).href : url.origin + url.pathname;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((hit) => hit ?? Response.error())),
  );
});
