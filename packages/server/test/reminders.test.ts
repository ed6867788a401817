import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, request } from './helpers/domain.ts';
import { type Session, signIn, signUp } from './helpers/factories.ts';
import { type ParsedMail, type Smtp, startSmtp, verificationToken } from './helpers/smtp.ts';

const NOT_CONFIGURED = 'Email reminders are not configured on this server.';
const HOUR = 3_600_000;

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
      expect(settings).toEqual({
        configured: false,
        enabled: false,
        daysAhead: 7,
        email: expect.any(String),
        emailVerified: false,
      });
      const on = await request(api, 'PUT', '/account/reminders', { enabled: true });
      expect(on.statusCode).toBe(409);
      expect(on.json().message).toBe(NOT_CONFIGURED);
      expect((await request(api, 'PUT', '/account/reminders', { enabled: false })).statusCode).toBe(200);
      expect(await t.app.reminders.sendDigests()).toEqual({
        queued: 0,
        nothingDue: 0,
        queuedElsewhere: 0,
        askedToVerify: 0,
      });
    });
  });

  describe('with an SMTP server', () => {
    let t: TestApp;
    let smtp: Smtp;

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

    /** Follows the latest verification link mailed to the session's address. */
    const followLink = async (session: Session) => {
      await t.app.outbox.settled();
      const token = verificationToken(smtp.to(session.email));
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/account/email/verify', payload: { token } });
      expect(res.statusCode).toBe(200);
    };
    /** A new account whose address is verified, as every account that gets digests has. */
    const verifiedUser = async (): Promise<Api> => {
      const session = await signUp(t.app);
      await followLink(session);
      return { app: t.app, session };
    };

    /** The hourly job, then the notification sender's pass that mails what it queued (main.ts runs both). */
    const digests = async () => {
      const run = await t.app.reminders.sendDigests();
      const sent = await t.app.notifications.runOnce();
      return { ...run, ...sent };
    };
    /** The user's delivery log, signed in afresh (the tests move the clock past an access token's life). */
    const deliveries = async (api: Api) => {
      const res = await request(
        { app: t.app, session: await signIn(t.app, api.session) },
        'GET',
        '/notification-deliveries',
      );
      expect(res.statusCode).toBe(200);
      return res.json().deliveries as {
        event: string;
        channelName: string;
        channelKind: string;
        title: string;
        status: string;
        attempts: number;
        lastError: string | null;
        nextTry: string | null;
      }[];
    };

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
      // The choice is an email channel hearing the digest: its days ahead are the reminders'.
      const listed = async () => (await request(api, 'GET', '/notification-channels')).json().channels;
      const [channel] = await listed();
      expect(channel).toMatchObject({ kind: 'email', name: 'Daily digest', events: ['digest'], daysAhead: 3 });
      expect((await request(api, 'PATCH', `/notification-channels/${channel.id}`, { daysAhead: 12 })).statusCode).toBe(
        200,
      );
      expect((await request(api, 'GET', '/account/reminders')).json()).toMatchObject({ enabled: true, daysAhead: 12 });
      // Only an email channel may hear the digest.
      const hook = await request(api, 'POST', '/notification-channels', {
        kind: 'webhook',
        name: 'Hook',
        url: 'https://hooks.example.test/in',
        events: ['digest'],
      });
      expect(hook.statusCode).toBe(400);
      expect(hook.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(hook.json().message).toContain('may include digest only on an email channel');
      const off = await request(api, 'PUT', '/account/reminders', { enabled: false });
      expect(off.json()).toMatchObject({ enabled: false, daysAhead: 7 });
      expect(await listed()).toEqual([]);
      // An email channel hearing more than the digest stays, without it.
      const mail = await request(api, 'POST', '/notification-channels', {
        kind: 'email',
        name: 'Mail',
        events: ['overdue', 'digest'],
      });
      expect(mail.statusCode).toBe(201);
      expect((await request(api, 'GET', '/account/reminders')).json()).toMatchObject({ enabled: true, daysAhead: 3 });
      await request(api, 'PUT', '/account/reminders', { enabled: false });
      expect(await listed()).toEqual([expect.objectContaining({ name: 'Mail', events: ['overdue'] })]);
      // Choosing the digest on the channel turns reminders on.
      const again = await request(api, 'PATCH', `/notification-channels/${mail.json().id}`, { events: ['digest'] });
      expect(again.statusCode).toBe(200);
      expect((await request(api, 'GET', '/account/reminders')).json()).toMatchObject({ enabled: true });
    });

    it('mails one digest a day per user, even from two processes at once, only with something due', async () => {
      const alice = await verifiedUser();
      const quiet = await verifiedUser();
      const off = await verifiedUser();
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
        expect(runs.reduce((n, r) => n + r.queued, 0)).toBe(1);
        expect(runs.reduce((n, r) => n + r.nothingDue, 0)).toBeGreaterThanOrEqual(1);
        // Both processes' senders look at once: the outbox's claim lets one of them mail it.
        const sends = await Promise.all([t.app.notifications.runOnce(), other.notifications.runOnce()]);
        expect(sends.reduce((n, r) => n + r.sent, 0)).toBe(1);
        // A process started later the same day (a restart) queues and sends nothing more.
        expect(await other.reminders.sendDigests()).toMatchObject({ queued: 0 });
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
      // It is the email channel's delivery, in the delivery log like any other.
      expect(await deliveries(alice)).toEqual([
        expect.objectContaining({
          event: 'digest',
          channelName: 'Daily digest',
          channelKind: 'email',
          title: mail.subject,
          status: 'sent',
          attempts: 1,
        }),
      ]);
      const channels = (await request(alice, 'GET', '/notification-channels')).json().channels;
      expect(channels).toEqual([expect.objectContaining({ kind: 'email', events: ['digest'], daysAhead: 7 })]);

      // Again the same day: nothing more. The next day: again.
      await digests();
      expect(smtp.received.length - before).toBe(1);
      t.clock.advance(24 * HOUR);
      await digests();
      expect(smtp.received.length - before).toBe(2);
      t.clock.advance(-24 * HOUR);
    });

    it('cover every ledger of the user, adding up what is due and naming each invoice’s ledger', async () => {
      const bob = await verifiedUser();
      const carol = await verifiedUser();
      const own = await createEntry(bob, { date: '2026-10-01', dueDate: '2026-11-01', amount: 10, flow: 'expense' });
      const shared = await createEntry(carol, {
        date: '2026-10-01',
        dueDate: '2026-10-20',
        amount: 30,
        flow: 'expense',
      });
      const household = await t.app.db
        .selectFrom('ledgers as l')
        .innerJoin('users as u', 'u.id', 'l.personal_user_id')
        .select(['l.id'])
        .where('u.username', '=', carol.session.username)
        .executeTakeFirstOrThrow();
      await t.app.db.updateTable('ledgers').set({ name: 'Household' }).where('id', '=', household.id).execute();
      const bobId = (
        await t.app.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', bob.session.username)
          .executeTakeFirstOrThrow()
      ).id;
      await t.app.db
        .insertInto('ledger_members')
        .values({ ledger_id: household.id, user_id: bobId, role: 'viewer', joined_at: 1 })
        .execute();
      await remindersOn(bob, 7);
      const before = smtp.received.length;
      await digests();
      const bobEmail = (await request(bob, 'GET', '/account/reminders')).json().email;
      const mail = smtp.received
        .slice(before)
        .find((m) => (m.to && 'text' in m.to ? m.to.text : '') === bobEmail) as ParsedMail;
      expect(mail.subject).toBe('Billfold: 2 invoices overdue');
      expect(mail.text).toContain('Overdue: 2 invoices ($40.00 to pay)');
      // Earliest due first, whichever ledger holds it.
      const lines = (mail.text ?? '').split('\n').filter((l) => l.startsWith('  #'));
      expect(lines).toEqual([
        `  #${shared.invoiceId} ${shared.name} (Household): $30.00 to pay, due 2026-10-20`,
        `  #${own.invoiceId} ${own.name} (Personal): $10.00 to pay, due 2026-11-01`,
      ]);
    });

    it('waits for the reminder hour, and a refused send is in the delivery log and tried again, once', async () => {
      const bob = await verifiedUser();
      await createEntry(bob, { date: '2026-10-01', dueDate: '2026-11-01', amount: 5 });
      await remindersOn(bob);
      const to = (await request(bob, 'GET', '/account/reminders')).json().email;
      const mailsTo = () => smtp.to(to).filter((m) => m.subject?.includes('overdue')).length;
      const start = t.clock.now();
      try {
        t.clock.set(Date.UTC(2026, 10, 23, 6, 59));
        await digests();
        expect(mailsTo()).toBe(0);
        expect(await deliveries(bob)).toEqual([]);
        t.clock.set(Date.UTC(2026, 10, 23, 7, 0));
        smtp.state.refusing = true;
        const refused = await digests();
        expect(refused.failed).toBeGreaterThanOrEqual(1);
        expect(mailsTo()).toBe(0);
        const [failed] = await deliveries(bob);
        expect(failed).toMatchObject({ event: 'digest', status: 'failed', attempts: 1, nextTry: expect.any(String) });
        expect(failed?.lastError).toMatch(/\S/);
        smtp.state.refusing = false;
        // The job's next run queues nothing more for the day; the sender retries after its backoff (a minute).
        t.clock.set(Date.UTC(2026, 10, 23, 7, 0, 30));
        await digests();
        expect(mailsTo()).toBe(0);
        t.clock.set(Date.UTC(2026, 10, 23, 7, 1));
        await digests();
        expect(mailsTo()).toBe(1);
        expect(await deliveries(bob)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2 })]);
        t.clock.set(Date.UTC(2026, 10, 23, 8, 0));
        await digests();
        expect(mailsTo()).toBe(1);
      } finally {
        smtp.state.refusing = false;
        t.clock.set(start);
      }
    });

    it('send no digest to an unverified address, and say so; once it is verified they go out', async () => {
      const carol: Api = { app: t.app, session: await signUp(t.app) };
      await createEntry(carol, { date: '2026-10-01', dueDate: '2026-11-01', amount: 5 });
      expect(await remindersOn(carol)).toMatchObject({ enabled: true, emailVerified: false });
      await t.app.outbox.settled();
      const before = smtp.to(carol.session.email).length; // the sign-up's verification link
      const run = await digests();
      expect(run.askedToVerify).toBe(0); // a link was sent at sign-up: not asked again
      expect(smtp.to(carol.session.email)).toHaveLength(before);
      await followLink(carol.session);
      expect((await request(carol, 'GET', '/account/reminders')).json().emailVerified).toBe(true);
      await digests();
      const mailed = smtp.to(carol.session.email).filter((m) => m.subject?.includes('overdue'));
      expect(mailed).toHaveLength(1);
    });

    it('an account from before verification is sent one link saying its reminders are paused, then digests resume', async () => {
      const dave: Api = { app: t.app, session: await signUp(t.app) };
      await createEntry(dave, { date: '2026-10-01', dueDate: '2026-11-01', amount: 5 });
      await remindersOn(dave);
      await t.app.outbox.settled();
      // As the migration leaves an account made before it: unverified, and never sent a link.
      const row = await t.app.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', dave.session.username)
        .executeTakeFirstOrThrow();
      await t.app.db.deleteFrom('email_verifications').where('user_id', '=', row.id).execute();
      const before = smtp.to(dave.session.email).length;

      const first = await digests();
      expect(first.askedToVerify).toBeGreaterThanOrEqual(1);
      await t.app.outbox.settled();
      const asked = smtp.to(dave.session.email).slice(before);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.subject).toBe('Billfold: confirm your email address');
      expect(asked[0]?.text).toContain('your daily reminders are paused until you confirm this one');
      expect(asked[0]?.text).toContain('https://bills.example.test/verify-email#');
      // Asked once: the next run sends nothing more.
      await digests();
      await t.app.outbox.settled();
      expect(smtp.to(dave.session.email).slice(before)).toHaveLength(1);

      await followLink(dave.session);
      t.clock.advance(24 * HOUR);
      try {
        await digests();
        expect(smtp.to(dave.session.email).filter((m) => m.subject?.includes('overdue'))).toHaveLength(1);
      } finally {
        t.clock.advance(-24 * HOUR);
      }
    });
  });
});
