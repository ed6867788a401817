/*
 * Billfold's service worker: shows the web push notifications the server sends (docs/api/notifications.md, What is
 * sent) and opens what one is about when it is clicked. The payload is `{title, body, event, id, url}`; `url` is a
 * path of the app (the invoice, or `/home`).
 */

/** A path of this app, or `/home` for anything else (a payload never sends the click to another site). */
function appPath(url) {
  try {
    const target = new URL(url || '/home', self.location.origin);
    return target.origin === self.location.origin ? target.pathname + target.search : '/home';
  } catch {
    return '/home';
  }
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Billfold', {
      body: data.body || '',
      icon: '/icons/icon-192.png',
      tag: data.id ? `billfold-${data.id}` : undefined,
      data: { url: appPath(data.url) },
    }),
  );
});

/**
 * A tab of the app already open (and run by this worker) is taken to the page and brought forward; otherwise a new
 * window opens there.
 */
async function openPage(path) {
  const tabs = await self.clients.matchAll({ type: 'window' });
  for (const tab of tabs) {
    const moved = await tab.navigate(path).catch(() => null);
    if (moved) {
      await moved.focus().catch(() => undefined);
      return;
    }
  }
  await self.clients.openWindow(path);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openPage(appPath(event.notification.data?.url)));
});
