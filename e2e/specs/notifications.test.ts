/**
 * Notification channels on the Account page, against a server of this spec's own (support/server.ts) allowed to
 * reach 127.0.0.1 (`NOTIFY_ALLOW_PRIVATE`) and a real webhook receiver started here that checks the Standard
 * Webhooks signature with the secret the page showed once.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notice } from '../pages/notice.ts';
import { createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

let server: TestServer;
let receiver: Server;
let receiverUrl = '';
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const state = { status: 200 };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = state.status;
      res.end(state.status < 300 ? 'ok' : 'receiver down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  server = await startServer({ NOTIFY_ALLOW_PRIVATE: 'true', NOTIFY_TIMEOUT_SECONDS: '3' });
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('notifications on the account page', () => {
  it('adds a webhook, shows its secret once, tests it, logs each delivery and sends a failed one again', async () => {
    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await loginAs(page, (await createSignedInUser({}, server.baseUrl)).user);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByText('You have no notification channels.').waitFor();
    await section.getByText('Nothing sent yet.').waitFor();

    await section.getByRole('button', { name: 'Add Channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Notification Channel' });
    await dialog.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Webhook' }).click();
    await dialog.getByLabel('Name').fill('Home server');
    await dialog.getByLabel('Address').fill(receiverUrl);
    await dialog.getByRole('checkbox', { name: 'Invoice overdue' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'A schedule created an invoice' }).check();
    await expectAccessible(page, 'the add channel dialog');
    await dialog.getByRole('button', { name: 'Add Channel' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy the Signing Secret' });
    const secret = (await shown.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });

    const row = section.getByTestId('notification-channel-row').filter({ hasText: 'Home server' });
    await row.getByText(receiverUrl).waitFor();
    await row.getByText('Invoice due soon (3 days), A schedule created an invoice').waitFor();
    // The list never carries the secret again.
    expect(await page.content()).not.toContain(secret);

    await row.getByRole('button', { name: 'Test Home server' }).click();
    await notice(page).filter({ hasText: 'Test sent to “Home server”.' }).waitFor();
    expect(received).toHaveLength(1);
    const first = received[0] as { headers: IncomingHttpHeaders; body: string };
    const payload = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as {
      type: string;
    };
    expect(payload.type).toBe('test');
    const log = section.getByTestId('delivery-row');
    await log.first().getByText('Sent').waitFor();

    // A receiver that is down: the test gives up with the answer in the log, and Send again delivers it later.
    state.status = 503;
    await row.getByRole('button', { name: 'Test Home server' }).click();
    await notice(page).filter({ hasText: 'The test did not arrive: answered 503: receiver down.' }).waitFor();
    await log.first().getByText('Gave up').waitFor();
    await log.first().getByText('answered 503: receiver down').waitFor();
    await expectAccessible(page, 'the account page with channels and deliveries');
    await screenshotBothThemes(page, 'notifications-desktop');
    state.status = 200;
    await log.first().getByRole('button', { name: 'Send again: Test notification' }).click();
    await notice(page).filter({ hasText: 'Sending again.' }).waitFor();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(3);
    await page.reload();
    await page
      .getByRole('region', { name: 'Notifications' })
      .getByTestId('delivery-row')
      .first()
      .getByText('Sent')
      .waitFor();

    // Edit the events, then delete the channel.
    await row.getByRole('button', { name: 'Edit Home server' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Channel' });
    await edit.getByRole('checkbox', { name: 'Invoice due soon' }).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await row.getByText('A schedule created an invoice', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Delete Home server' }).click();
    await page.getByRole('dialog', { name: 'Delete Channel' }).getByRole('button', { name: 'Delete' }).click();
    await section.getByText('You have no notification channels.').waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it('fits a phone: channels and the log at 360 px, light and dark', async () => {
    state.status = 200;
    const page = await browser.newPage({
      baseUrl: server.baseUrl,
      viewport: { width: 360, height: 800 },
      mobile: true,
    });
    await loginAs(page, (await createSignedInUser({}, server.baseUrl)).user);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByRole('button', { name: 'Add Channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Notification Channel' });
    await dialog.getByLabel('Name').fill('Phone topic');
    await dialog.getByLabel('Topic address').fill(`${receiverUrl}-ntfy-topic-with-a-long-name`);
    await dialog.getByLabel('Access token (optional)').fill('tk_secret');
    await screenshotBothThemes(page, 'notifications-phone-dialog');
    await dialog.getByRole('button', { name: 'Add Channel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = section.getByTestId('notification-channel-row').filter({ hasText: 'Phone topic' });
    await row.getByRole('button', { name: 'Test Phone topic' }).click();
    await notice(page).filter({ hasText: 'Test sent to “Phone topic”.' }).waitFor();
    await section.getByTestId('delivery-row').first().getByText('Sent').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await section.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'notifications-phone');
    await expectAccessible(page, 'the account page on a phone');
    expect(browser.pageErrors).toEqual([]);
  });
});
