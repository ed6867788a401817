/**
 * Web push in a real Chromium (docs/decisions/1155-web-push-in-the-browser.md). Headless Chromium has no push
 * service to subscribe to, so the server's push goes to a push endpoint started here, which decrypts it with the
 * subscription keys the test made; that very payload is then delivered to the app's service worker through the
 * Chrome DevTools Protocol (`ServiceWorker.deliverPushMessage`), which dispatches a `push` event as a push service
 * would. The worker must show the notification with the invoice's link, and a click on it must open the invoice.
 * The permission prompt must come only from the user's click, never on page load.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { useBrowser } from '../support/browser.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

let server: TestServer;
let pushService: Server;
let pushUrl = '';
const pushed: Buffer[] = [];

beforeAll(async () => {
  pushService = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      pushed.push(Buffer.concat(chunks));
      res.statusCode = 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  pushUrl = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}/push/laptop`;
  server = await startServer({ NOTIFY_ALLOW_PRIVATE: 'true', NOTIFY_TIMEOUT_SECONDS: '5' });
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => pushService?.close(() => resolve()));
});

interface ShownNotification {
  title: string;
  body: string;
  data: { url?: string } | null;
}

describe('web push in Chromium', () => {
  // A server restart and a service worker's start: room on a machine shared with other work.
  it('asks for permission only on the click; the worker shows the server’s push and its click opens the invoice', {
    timeout: 120_000,
  }, async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    const today = new Date().toISOString().slice(0, 10);
    const bill = await api.request<{ id: number }>('POST', '/bills', {
      name: 'Water Works',
      status: 1,
      category: 'Utilities',
      internal: false,
    });
    const entry = await api.request<{ entryId: number; invoiceId: number }>('POST', '/entries/new', {
      billId: bill.id,
      date: today,
      dueDate: today,
      flow: 'expense',
      amount: 42.5,
      services: 'Quarterly water',
    });

    // A subscription the test holds the keys of, at a push endpoint of its own; the next start's hourly job sends
    // the due-soon push for the invoice there, encrypted for those keys.
    const keys = createECDH('prime256v1');
    keys.generateKeys();
    const auth = randomBytes(16).toString('base64url');
    await api.request('POST', '/notification-channels', {
      kind: 'webpush',
      name: 'Laptop',
      events: ['due_soon'],
      daysAhead: 7,
      subscription: { endpoint: pushUrl, keys: { p256dh: keys.getPublicKey().toString('base64url'), auth } },
    });
    await server.restart();
    await expect.poll(() => pushed.length, { timeout: 20_000 }).toBe(1);
    const plain = ece.decrypt(pushed[0] as Buffer, { version: 'aes128gcm', privateKey: keys, authSecret: auth });
    const payload = JSON.parse(plain.toString()) as { title: string; body: string; event: string; url: string };
    expect(payload).toMatchObject({
      title: `Due today: #${entry.invoiceId} Water Works`,
      event: 'due_soon',
      url: `/entries/${entry.entryId}`,
    });

    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await page.addInitScript(() => {
      const counted = window as unknown as { permissionAsks: number };
      counted.permissionAsks = 0;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
        counted.permissionAsks += 1;
        return ask(...args);
      };
    });
    const asks = () => page.evaluate(() => (window as unknown as { permissionAsks: number }).permissionAsks);
    await loginAs(page, api.user);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByTestId('notification-channel-row').filter({ hasText: 'Laptop' }).waitFor();
    // Loading the app asks nothing and registers no worker.
    expect(await asks()).toBe(0);
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

    // The click asks (granted here, as a person would), then registers the worker and subscribes.
    await page.context().grantPermissions(['notifications'], { origin: server.baseUrl });
    await section.getByRole('button', { name: 'Add Channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Notification Channel' });
    await dialog.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'This browser (push)' }).click();
    await dialog.getByLabel('Name').fill('This laptop');
    expect(await asks()).toBe(0);
    await dialog.getByRole('button', { name: 'Add Channel' }).click();
    // Headless Chromium has no push service: the subscription fails, and the dialog says why.
    await dialog.getByRole('alert').waitFor();
    expect(await asks()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(1);

    // Reloaded, the page is run by the worker (a click then takes this tab to the invoice).
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cdp = await page.context().newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const found = registrations.find((r) => r.scopeURL === `${server.baseUrl}/` && !r.isDeleted);
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.baseUrl,
      registrationId: await registrationId,
      data: plain.toString(),
    });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map(
          (n): ShownNotification => ({ title: n.title, body: n.body, data: n.data }),
        ),
      );
    await expect.poll(shown, { timeout: 10_000 }).toHaveLength(1);
    expect(await shown()).toEqual([
      { title: payload.title, body: payload.body, data: { url: `/entries/${entry.entryId}` } },
    ]);

    // The click: the worker's own notificationclick handler, given the notification it showed.
    const worker = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent('serviceworker'));
    await worker.evaluate(async () => {
      // The worker's global scope (this file is typed for pages, not workers).
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
        dispatchEvent(event: Event): boolean;
      };
      const [notification] = await scope.registration.getNotifications();
      if (!notification) throw new Error('no notification to click');
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
    });
    await page.waitForURL(`**/entries/${entry.entryId}`);
    await page.getByRole('heading', { name: `Invoice #${entry.invoiceId}` }).waitFor();
    await expect.poll(shown).toEqual([]);
    await expectAccessible(page, 'the invoice a push notification opened');
  });
});
