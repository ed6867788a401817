/**
 * Verified addresses (docs/decisions/1131-verified-addresses.md) on a server that can send mail: a server of this
 * spec's own (support/server.ts) with `SMTP_URL` pointing at a real SMTP server (support/mailbox.ts).
 */
import type { EmailStatus } from '@billfold/contract/email-verification';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { type Mailbox, startMailbox, VERIFICATION_SUBJECT, verificationLink, waitForMail } from '../support/mailbox.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

let mailbox: Mailbox;
let server: TestServer;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startServer({ SMTP_URL: mailbox.url, MAIL_FROM: 'Billfold <billfold@example.test>' });
});

afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

describe('verified addresses on a server with mail settings', () => {
  it('a changed address gets a link by mail; opening it verifies the address, and the account page says so', async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    await waitForMail(mailbox, api.user.email, VERIFICATION_SUBJECT);
    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await loginAs(page, api.user);
    const account = await new AccountPage(page).goto();
    const emailRow = page.locator('dd', { has: page.getByText(api.user.email, { exact: true }) });
    await emailRow.getByText('Not verified', { exact: true }).waitFor();
    await emailRow.getByText('We sent a link to this address on', { exact: false }).waitFor();

    const newEmail = `moved.${api.user.username}@example.org`;
    await account.changeEmail(newEmail, api.user.password);
    await account.notice.filter({ hasText: 'Email updated.' }).waitFor();
    await expect.poll(() => account.value('Email').textContent()).toBe(newEmail);
    const newRow = page.locator('dd', { has: page.getByText(newEmail, { exact: true }) });
    await newRow.getByText('Not verified', { exact: true }).waitFor();

    const [mail] = await waitForMail(mailbox, newEmail, VERIFICATION_SUBJECT);
    if (!mail) throw new Error('no mail');
    expect(mail.text).toContain('Your Billfold account now uses this email address');
    const link = verificationLink(mail);
    expect(link.startsWith(`${server.baseUrl}/verify-email#`)).toBe(true);

    // The link, opened as a mail client would: the page calls the API and says what happened.
    await page.goto(link);
    await page.getByText(`${newEmail} is verified.`, { exact: false }).waitFor();
    expect(new URL(page.url()).hash).toBe(''); // the token leaves the address bar
    await page.mouse.move(0, 0);
    await screenshot(page, 'verify-email-done');
    await page.getByRole('link', { name: 'Go to Account' }).click();
    await account.heading.waitFor();
    await newRow.getByText('Verified', { exact: true }).waitFor();
    expect(await newRow.getByRole('button', { name: 'Send Again' }).count()).toBe(0);
    expect(await api.request<EmailStatus>('GET', '/account/email')).toMatchObject({ email: newEmail, verified: true });

    // The same link again: used, and the page says so plainly.
    await page.goto(link);
    await page.getByText('This verification link does not work', { exact: false }).waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'verify-email-used');
  });

  it('"Send Again" mails a new link, and after three the server’s reason is shown', async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    await waitForMail(mailbox, api.user.email, VERIFICATION_SUBJECT);
    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await loginAs(page, api.user);
    await new AccountPage(page).goto();
    const send = page.getByRole('button', { name: 'Send Again' });
    for (let i = 1; i <= 3; i++) {
      await send.click();
      await waitForMail(mailbox, api.user.email, VERIFICATION_SUBJECT, 1 + i);
    }
    await send.click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Failed to send the link\. Too many verification emails\. Try again in \d+ minutes?\.$/ })
      .waitFor();
  });

  it('the account page in light and dark, desktop and phone, with the address not verified and reminders waiting', async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    await waitForMail(mailbox, api.user.email, VERIFICATION_SUBJECT);
    await api.request('PUT', '/account/reminders', { enabled: true });
    for (const [name, options] of [
      ['desktop', { viewport: { width: 1366, height: 900 } }],
      ['phone', { viewport: { width: 390, height: 844 }, mobile: true }],
    ] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const page = await browser.newPage({ baseUrl: server.baseUrl, ...options });
        await page.emulateMedia({ colorScheme: theme });
        await loginAs(page, api.user);
        await new AccountPage(page).goto();
        await page.getByText('Verify your address to keep getting reminders', { exact: false }).waitFor();
        await page.getByRole('button', { name: 'Send Again' }).waitFor();
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(options.viewport.width);
        await page.mouse.move(0, 0);
        await screenshot(page, `verified-email-account-${name}-${theme}`);
      }
    }
  });
});
