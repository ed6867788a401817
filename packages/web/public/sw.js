/*
 * Billfold's service worker: shows the web push notifications the server sends (docs/api/notifications.md, What is
 * sent) and opens the app when one is clicked. The payload is `{title, body, event, id}`.
 */
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
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(self.clients.openWindow('/home'));
});
