/**
 * A forgotten password (docs/decisions/0723-password-reset.md) on a server that can send mail: a server of this
 * spec's own (support/server.ts) with `SMTP_URL` pointing at a real SMTP server (support/mailbox.ts) and
 * `PUBLIC_URL` set to its own address, the only address password links are made with.
 */
import { RESET_MESSAGES } from '@billfold/contract/password-reset';
import { MESSAGES } from '@billfold/contract/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginPage } from '../pages/login-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { type Mailbox, startMailbox, VERIFICATION_SUBJECT, verificationLink, waitForMail } from '../support/mailbox.ts';
import { startServer, type TestServer } from '../support/server.ts';

const browser = useBrowser();
const RESET_SUBJECT = 'Billfold: choose a new password';
const NEW_PASSWORD = 'Fresh!Passw0rd-2026';

let mailbox: Mailbox;
let server: TestServer;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startServer((baseUrl) => ({
    SMTP_URL: mailbox.url,
    MAIL_FROM: 'Billfold <billfold@example.test>',
    PUBLIC_URL: baseUrl,
  }));
});

afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

describe('a forgotten password on a server with mail settings', () => {
  it('asks for a link from the login page, follows it, sets a new password and signs in with it', async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    // The link goes only to a confirmed address: follow the sign-up's verification link first.
    const [verification] = await waitForMail(mailbox, api.user.email, VERIFICATION_SUBJECT);
    if (!verification) throw new Error('no verification mail');
    const token = new URL(verificationLink(verification)).hash.slice(1);
    await api.request('POST', '/account/email/verify', { token });

    const page = await browser.newPage({ baseUrl: server.baseUrl });
    const login = await new LoginPage(page).goto();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    await screenshotBothThemes(page, 'password-reset-ask');
    await page.getByLabel('Email').fill(api.user.email.toUpperCase());
    await page.getByRole('button', { name: 'Send Link' }).click();
    await page.getByText(RESET_MESSAGES.requested).waitFor();
    await screenshotBothThemes(page, 'password-reset-asked');

    const [mail] = await waitForMail(mailbox, api.user.email, RESET_SUBJECT);
    const link = /https?:\/\/\S+\/reset-password#[A-Za-z0-9_-]+/.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error('no password link in the mail');
    expect(link.startsWith(`${server.baseUrl}/reset-password#`)).toBe(true);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a New Password' }).waitFor();
    expect(new URL(page.url()).hash).toBe(''); // the token leaves the address bar
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm New Password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText(MESSAGES.passwordsDoNotMatch).waitFor();
    await screenshotBothThemes(page, 'password-reset-mismatch');
    await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set Password' }).click();

    // Back on the login page, which says what happened; the old password no longer signs in, the new one does.
    await login.heading.waitFor();
    await login.notice.filter({ hasText: RESET_MESSAGES.done }).waitFor();
    await screenshotBothThemes(page, 'password-reset-done');
    await login.login(api.user.username, api.user.password);
    await login.notice.filter({ hasText: 'Unauthorized: Invalid username or password.' }).waitFor();
    await login.login(api.user.username, NEW_PASSWORD);
    await page.waitForURL('**/home');

    // The same link again: used, and the page says so and offers a new one.
    const again = await browser.newPage({ baseUrl: server.baseUrl });
    await again.goto(link);
    await again.getByLabel('New Password', { exact: true }).fill(`${NEW_PASSWORD}2`);
    await again.getByLabel('Confirm New Password').fill(`${NEW_PASSWORD}2`);
    await again.getByRole('button', { name: 'Set Password' }).click();
    await again.getByText(RESET_MESSAGES.linkInvalid).waitFor();
    await again.getByRole('link', { name: 'Ask for a New Link' }).waitFor();
    await screenshotBothThemes(again, 'password-reset-used');
  }, 120_000);

  it('fits a phone', async () => {
    const page = await browser.newPage({
      baseUrl: server.baseUrl,
      viewport: { width: 360, height: 740 },
      mobile: true,
    });
    await page.goto('/forgot-password');
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshotBothThemes(page, 'password-reset-ask-phone');
    await page.goto('/reset-password');
    await page.getByText('This link is incomplete', { exact: false }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshotBothThemes(page, 'password-reset-incomplete-phone');
  });
});
