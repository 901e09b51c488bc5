// The app's service worker: keeps the app shell (page, script, SQLite's WebAssembly, styles, icons) so
// that the app opens with no network. The API is never cached here: answers offline come from the packs
// the page keeps in IndexedDB. The shell is replaced as a whole when a new build changes its version.
declare const __APP_VERSION__: string;
declare const __APP_SHELL__: string[];

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface WorkerScope {
  registration: { scope: string };
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
const CACHE = `heatsource-app-${__APP_VERSION__}`;
const base = new URL(scope.registration.scope);
const shellUrls = ['./', ...__APP_SHELL__.filter((f) => f !== 'index.html')].map(
  (f) => new URL(f, base).href,
);

scope.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(shellUrls))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('heatsource-app-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return;
  // Page loads get the cached shell page whatever their query; files are the cached ones.
  const key = request.mode === 'navigate' ? new URL('./', base).href : `${url.origin}${url.pathname}`;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(key);
      if (hit) return hit;
      return fetch(request);
    }),
  );
});
