import type { CreateChannelBody } from '@billfold/contract/notifications';

/** Whether this browser can take push notifications at all (a service worker and the Push API). */
export function webPushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Asks the browser for permission (only ever from a click: the dialog's Add button), registers the service worker
 * (`public/sw.js`) and subscribes with the server's VAPID key; the subscription is what the new channel stores.
 * Throws an error whose message the dialog shows when the browser cannot or the person says no.
 */
export async function subscribeThisBrowser(
  vapidKey: string,
): Promise<Extract<CreateChannelBody, { kind: 'webpush' }>['subscription']> {
  if (!webPushSupported()) throw new Error('This browser cannot show push notifications.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new Error('Notifications are blocked for this site. Allow them in the browser’s site settings.');
  }
  const registration = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(vapidKey),
  });
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth)
    throw new Error('The browser gave no usable subscription.');
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}
