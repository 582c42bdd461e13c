// Service worker of Panel de Control de Agua: shows alarm pushes (with 'Reconocer' where the
// browser has notification actions) and keeps the app shell and every screen's code (the build's
// precache.json) so that the app, and each of its screens, opens without a network — its data is
// then unknown, and the app says so. API answers are never cached.
const SHELL_CACHE = 'agua-shell-v1';
const SHELL = ['/', '/manifest.webmanifest', '/favicon.svg', '/icon-192.png', '/icon-512.png'];

/**
 * Caches every script and style of the current build and forgets those of older builds. Run at
 * install and after each online page load (this file does not change between builds, so a new
 * build is noticed there).
 */
async function precache() {
  const res = await fetch('/precache.json', { cache: 'no-store' });
  if (!res.ok) return;
  const files = await res.json();
  const cache = await caches.open(SHELL_CACHE);
  const held = new Set((await cache.keys()).map((req) => new URL(req.url).pathname));
  await cache.addAll(files.filter((f) => !held.has(f)));
  const current = new Set(files);
  await Promise.all([...held].filter((p) => p.startsWith('/assets/') && !current.has(p)).map((p) => cache.delete(p)));
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => precache().catch(() => undefined))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') {
    // Network first: the newest shell when online, the kept one when not.
    event.respondWith(
      fetch(req)
        .then((res) => {
          const copy = res.clone();
          if (res.ok) event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put('/', copy)).then(() => precache().catch(() => undefined)));
          return res;
        })
        .catch(() => caches.match('/').then((res) => res || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Hashed file names never change: the cache is always right.
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            const copy = res.clone();
            if (res.ok) caches.open(SHELL_CACHE).then((cache) => cache.put(req, copy));
            return res;
          }),
      ),
    );
  }
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : 'Panel de Control de Agua' };
  }
  const canAct = 'actions' in Notification.prototype && data.alarmId && data.event !== 'cleared';
  event.waitUntil(
    self.registration.showNotification(data.title || 'Panel de Control de Agua', {
      body: data.body || '',
      tag: data.tag || data.id,
      renotify: true,
      requireInteraction: data.priority === 1,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      lang: 'es',
      data: { alarmId: data.alarmId || null, link: data.link || '/alarms' },
      actions: canAct ? [{ action: 'ack', title: 'Reconocer' }] : [],
    }),
  );
});

async function openAlarms(link) {
  const target = new URL('/alarms', self.location.origin).href;
  const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of open) {
    if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
      await client.focus();
      if ('navigate' in client) return client.navigate(target);
      return client;
    }
  }
  return self.clients.openWindow(link && link.startsWith(self.location.origin) ? link : target);
}

self.addEventListener('notificationclick', (event) => {
  const { alarmId, link } = event.notification.data || {};
  event.notification.close();
  if (event.action === 'ack' && alarmId) {
    // Acknowledged with the session of this browser; without one (or refused), the screen opens.
    event.waitUntil(
      fetch(`/api/v1/alarms/${encodeURIComponent(alarmId)}/ack`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ comment: 'Reconocida desde la notificación' }),
      })
        .then((res) => (res.ok ? undefined : openAlarms(link)))
        .catch(() => openAlarms(link)),
    );
    return;
  }
  event.waitUntil(openAlarms(link));
});
