/**
 * Email reminders on a server that can send mail: a server of this spec's own (support/server.ts) with `SMTP_URL`
 * pointing at a real SMTP server (support/mailbox.ts). The suite's shared server has no mail settings
 * (specs/due-dates.test.ts checks the account page says so).
 */
import type { ReminderSettings } from '@billfold/contract/due';
import type { Entry } from '@billfold/contract/entries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshot, screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, daysAgo } from '../support/domain.ts';
import { type Mailbox, startMailbox, VERIFICATION_SUBJECT, verificationLink, waitForMail } from '../support/mailbox.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

let mailbox: Mailbox;
let server: TestServer;

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startServer({
    SMTP_URL: mailbox.url,
    MAIL_FROM: 'Billfold <billfold@example.test>',
    // The day's digest may go out at any hour the suite runs; the jobs run at every start (src/main.ts).
    REMINDER_HOUR: '0',
    // The jobs log their results at info.
    LOG_LEVEL: 'info',
  });
});

afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
});

/** The results the reminder job logged so far, one per run. */
function digestRuns(): { queued: number; nothingDue: number; queuedElsewhere: number }[] {
  return server
    .log()
    .split('\n')
    .slice(0, -1) // the last piece is a line still being written, if any
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.job === 'due-reminders' && entry.msg === 'job finished')
    .map((entry) => entry.result);
}

/** Restarts the server and waits until its start-up run of the reminder job has finished; returns that run. */
async function restartForDigest() {
  const runs = digestRuns().length;
  await server.restart();
  await expect.poll(() => digestRuns().length, { timeout: 20_000 }).toBe(runs + 1);
  return digestRuns()[runs];
}

describe('email reminders on a server with mail settings', () => {
  it('the account page turns reminders on with days ahead, keeps them over a reload, and turns them off', async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await loginAs(page, api.user);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Due Dates' });
    await section
      .getByText(`Once a day, an email to ${api.user.email} listing what is overdue and what falls due soon.`, {
        exact: false,
      })
      .waitFor();
    expect(await section.getByText('Email reminders are not configured', { exact: false }).count()).toBe(0);
    const toggle = section.getByRole('switch', { name: 'Send me reminders' });
    const days = section.getByRole('combobox', { name: 'Days ahead' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await days.getAttribute('aria-disabled')).toBe('true');

    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expect.poll(() => days.getAttribute('aria-disabled')).toBeNull();
    expect(await days.textContent()).toBe('7 days');
    await days.click();
    await page.getByRole('option', { name: '14 days' }).click();
    await expect.poll(() => days.textContent()).toBe('14 days');

    await page.reload();
    await days.waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect(await days.textContent()).toBe('14 days');
    expect(await api.request<ReminderSettings>('GET', '/account/reminders')).toEqual({
      configured: true,
      enabled: true,
      daysAhead: 14,
      email: api.user.email,
      emailVerified: false,
    });
    // Reminders wait for a verified address, and the section says so.
    await section.getByText('Verify your address to keep getting reminders', { exact: false }).waitFor();
    await page.mouse.move(0, 0);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'due-account-reminders');

    await toggle.click();
    // The field is disabled while the save is pending too, so wait for the saved state: the switch off.
    await expect.poll(() => toggle.isChecked()).toBe(false);
    expect(await days.getAttribute('aria-disabled')).toBe('true');
    await page.reload();
    await days.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await days.getAttribute('aria-disabled')).toBe('true');
    expect(await api.request<ReminderSettings>('GET', '/account/reminders')).toMatchObject({ enabled: false });
  });

  // Two sign-ins and screenshots in two sizes: room on a machine shared with other work.
  it('reminders are an email channel hearing the daily digest, which only email channels offer', {
    timeout: 120_000,
  }, async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 360, height: 740 },
    ]) {
      const api = await createSignedInUser({}, server.baseUrl);
      await api.request('PUT', '/account/reminders', { enabled: true, daysAhead: 10 });
      const page = await browser.newPage({ baseUrl: server.baseUrl, viewport, mobile: viewport.width < 600 });
      await loginAs(page, api.user);
      await page.goto('/account');
      const section = page.getByRole('region', { name: 'Notifications' });
      const row = section.getByTestId('notification-channel-row').filter({ hasText: 'Daily digest' });
      await row.getByText('Daily reminder digest (10 days)').waitFor();

      await section.getByRole('button', { name: 'Add Channel' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Notification Channel' });
      await dialog.getByRole('checkbox', { name: 'Invoice due soon' }).waitFor();
      // Another kind (ntfy first) has no digest; email has.
      expect(await dialog.getByRole('checkbox', { name: 'Daily reminder digest' }).count()).toBe(0);
      await dialog.getByRole('combobox', { name: 'Kind' }).click();
      await page.getByRole('option', { name: 'Email' }).click();
      await dialog.getByRole('checkbox', { name: 'Daily reminder digest' }).waitFor();
      await dialog.getByLabel('Days ahead for “due soon” and the digest').waitFor();
      await expectAccessible(page, 'the add channel dialog for email');
      await screenshotBothThemes(page, `reminders-digest-channel-${viewport.width}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await screenshotBothThemes(page, `reminders-digest-account-${viewport.width}`);
      // Turning reminders off takes the channel away, on the same page.
      await page.getByRole('region', { name: 'Due Dates' }).getByRole('switch', { name: 'Send me reminders' }).click();
      await row.waitFor({ state: 'detached' });
      await section.getByText('You have no notification channels.').waitFor();
    }
  });

  it('the server mails one digest a day to a user with reminders on, listing what is overdue and due soon', async () => {
    const seed = async (api: ApiSession) => {
      const entity = await createEntity(api, { name: `Power Co ${Date.now().toString(36)}` });
      const overdue = await createInvoice(api, entity.id, { date: daysAgo(40), dueDate: daysAgo(10), amount: 120.5 });
      // Within 14 days ahead, beyond the default 7.
      const soon = await createInvoice(api, entity.id, { date: daysAgo(2), dueDate: daysAgo(-10), amount: 80 });
      return { overdue, soon };
    };
    const reader = await createSignedInUser({}, server.baseUrl);
    // Digests go only to a verified address: follow the link sign-up mailed.
    const [link] = await waitForMail(mailbox, reader.user.email, VERIFICATION_SUBJECT);
    const token = verificationLink(link as (typeof mailbox.received)[number]).split('#')[1];
    const verified = await fetch(`${server.baseUrl}/api/v1/account/email/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(verified.status).toBe(200);
    const { overdue, soon } = await seed(reader);
    await reader.request('PUT', '/account/reminders', { enabled: true, daysAhead: 14 });
    // Same invoices, reminders off: no mail.
    const silent = await createSignedInUser({}, server.baseUrl);
    await seed(silent);
    await waitForMail(mailbox, silent.user.email, VERIFICATION_SUBJECT);
    const before = mailbox.received.length;

    // The job queues the digest in the notification outbox; the sender mails it.
    expect(await restartForDigest()).toMatchObject({ queued: 1 });
    await expect.poll(() => mailbox.received.length).toBe(before + 1);
    expect(mailbox.received[before]).toMatchObject({
      to: [reader.user.email],
      subject: 'Billfold: 1 invoice overdue, 1 invoice due within 14 days',
    });
    const text = mailbox.received[before]?.text;
    const line = (entry: Entry, owed: string) =>
      `#${entry.invoiceId} ${entry.name}: ${owed} to pay, due ${entry.dueDate}`;
    expect(text).toContain(`Hello ${reader.user.username},`);
    expect(text).toContain(line(overdue, '$120.50'));
    expect(text).toContain(line(soon, '$80.00'));

    // The day's digest went out: the next start sends nothing more.
    expect(await restartForDigest()).toMatchObject({ queued: 0 });
    expect(mailbox.received.length).toBe(before + 1);
    // It is the email channel's delivery, in the log on the Account page.
    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await loginAs(page, reader.user);
    await page.goto('/account');
    const log = page.getByRole('region', { name: 'Notifications' }).getByTestId('delivery-row');
    await log
      .filter({ hasText: 'Billfold: 1 invoice overdue, 1 invoice due within 14 days' })
      .getByText('Sent')
      .waitFor();
  });
});
