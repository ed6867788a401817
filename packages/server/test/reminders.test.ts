import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

const NOT_CONFIGURED = 'Email reminders are not configured on this server.';
const HOUR = 3_600_000;

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts (or refuses them while `refusing`). */
async function startSmtp() {
  const received: ParsedMail[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, done) {
      done(state.refusing ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    state,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(dialects)('email reminders on %s', (dialect) => {
  describe('without mail settings', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(() => t.close());

    it('say they are not configured, refuse to turn on, and may be turned off', async () => {
      const api: Api = { app: t.app, session: await signUp(t.app) };
      const settings = (await request(api, 'GET', '/account/reminders')).json();
      expect(settings).toEqual({ configured: false, enabled: false, daysAhead: 7, email: expect.any(String) });
      const on = await request(api, 'PUT', '/account/reminders', { enabled: true });
      expect(on.statusCode).toBe(409);
      expect(on.json().message).toBe(NOT_CONFIGURED);
      expect((await request(api, 'PUT', '/account/reminders', { enabled: false })).statusCode).toBe(200);
      expect(await t.app.reminders.sendDigests()).toEqual({ sent: 0, nothingDue: 0, claimedElsewhere: 0, failed: 0 });
    });
  });

  describe('with an SMTP server', () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await createTestApp(dialect, {
        mail: { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' },
        reminderHourUtc: 7,
        publicUrl: 'https://bills.example.test',
      });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const remindersOn = async (api: Api, daysAhead?: number) => {
      const res = await request(api, 'PUT', '/account/reminders', { enabled: true, daysAhead });
      expect(res.statusCode).toBe(200);
      return res.json();
    };

    it('stores the choice and checks days ahead', async () => {
      const api: Api = { app: t.app, session: await signUp(t.app) };
      expect(await remindersOn(api, 3)).toMatchObject({ configured: true, enabled: true, daysAhead: 3 });
      expect(await remindersOn(api)).toMatchObject({ daysAhead: 3 });
      const bad = await request(api, 'PUT', '/account/reminders', { enabled: true, daysAhead: 31 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^DaysAhead must be a whole number from 1 to 30/);
      const off = await request(api, 'PUT', '/account/reminders', { enabled: false });
      expect(off.json()).toMatchObject({ enabled: false, daysAhead: 7 });
    });

    it('mails one digest a day per user, even from two processes at once, only with something due', async () => {
      const alice: Api = { app: t.app, session: await signUp(t.app) };
      const quiet: Api = { app: t.app, session: await signUp(t.app) };
      const off: Api = { app: t.app, session: await signUp(t.app) };
      const power = await createBill(alice, { name: 'Power <Co>' });
      const late = await createEntry(alice, {
        billId: power.id,
        date: '2026-10-01',
        dueDate: '2026-11-01',
        amount: 120.5,
        flow: 'expense',
      });
      const soon = await createEntry(alice, { date: '2026-11-20', dueDate: '2026-11-25', amount: 40, flow: 'income' });
      await createEntry(alice, { date: '2026-11-20', dueDate: '2026-12-20', amount: 1 }); // beyond 7 days
      const paid = await createEntry(alice, { date: '2026-10-01', dueDate: '2026-11-02', amount: 9 });
      await createPayment(alice, { entryId: paid.entryId, amount: 9 });
      await createEntry(off, { date: '2026-10-01', dueDate: '2026-11-01', amount: 5 });
      await remindersOn(alice, 7);
      await remindersOn(quiet);
      const before = smtp.received.length;

      const other = await secondProcess(t, {
        mail: { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' },
        reminderHourUtc: 7,
        publicUrl: 'https://bills.example.test',
      });
      try {
        const runs = await Promise.all([t.app.reminders.sendDigests(), other.reminders.sendDigests()]);
        expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
        expect(runs.reduce((n, r) => n + r.nothingDue, 0)).toBeGreaterThanOrEqual(1);
      } finally {
        await other.close();
      }
      const mails = smtp.received.slice(before);
      expect(mails).toHaveLength(1);
      const mail = mails[0] as ParsedMail;
      const aliceEmail = (await request(alice, 'GET', '/account/reminders')).json().email;
      expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(aliceEmail);
      expect(mail.from?.text).toBe('"Billfold" <billfold@example.test>');
      expect(mail.subject).toBe('Billfold: 1 invoice overdue, 1 invoice due within 7 days');
      expect(mail.text).toContain(`#${late.invoiceId} Power <Co>: $120.50 to pay, due 2026-11-01`);
      expect(mail.text).toContain(`#${soon.invoiceId} `);
      expect(mail.text).toContain('$40.00 to collect, due 2026-11-25');
      expect(mail.text).toContain(`https://bills.example.test/entries/${late.entryId}`);
      expect(mail.text).not.toContain('2026-12-20');
      expect(mail.html).toContain('Power &lt;Co&gt;');

      // Again the same day: nothing more. The next day: again.
      await t.app.reminders.sendDigests();
      expect(smtp.received.length - before).toBe(1);
      t.clock.advance(24 * HOUR);
      await t.app.reminders.sendDigests();
      expect(smtp.received.length - before).toBe(2);
      t.clock.advance(-24 * HOUR);
    });

    it('waits for the reminder hour, and a refused send is tried again by the next run', async () => {
      const bob: Api = { app: t.app, session: await signUp(t.app) };
      await createEntry(bob, { date: '2026-10-01', dueDate: '2026-11-01', amount: 5 });
      await remindersOn(bob);
      const to = (await request(bob, 'GET', '/account/reminders')).json().email;
      const mailsTo = () => smtp.received.filter((m) => m.to && 'text' in m.to && m.to.text === to).length;
      const start = t.clock.now();
      try {
        t.clock.set(Date.UTC(2026, 10, 23, 6, 59));
        await t.app.reminders.sendDigests();
        expect(mailsTo()).toBe(0);
        t.clock.set(Date.UTC(2026, 10, 23, 7, 0));
        smtp.state.refusing = true;
        const refused = await t.app.reminders.sendDigests();
        expect(refused.failed).toBeGreaterThanOrEqual(1);
        expect(mailsTo()).toBe(0);
        smtp.state.refusing = false;
        t.clock.set(Date.UTC(2026, 10, 23, 8, 0));
        await t.app.reminders.sendDigests();
        expect(mailsTo()).toBe(1);
      } finally {
        smtp.state.refusing = false;
        t.clock.set(start);
      }
    });
  });
});
