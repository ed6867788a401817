import { Writable } from 'node:stream';
import nodeIcal, { type VEvent } from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, request, updateBill } from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';

const FEED_GONE = 'No calendar feed has this address. It may have been turned off or replaced.';

describe.each(dialects)('the private calendar feed on %s', (dialect) => {
  let t: TestApp;
  const logs: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(dialect, { logLevel: 'info' }, { logStream });
  });
  afterAll(() => t.close());

  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });
  const turnOn = async (api: Api) => {
    const res = await request(api, 'PUT', '/account/calendar-feed', { enabled: true, password: api.session.password });
    expect(res.statusCode).toBe(200);
    return res.json<{ enabled: boolean; createdAt: string; url: string }>();
  };
  /** The feed as a calendar app fetches it: no session, the address alone. */
  const fetchFeed = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname });
  const events = (text: string) =>
    Object.values(nodeIcal.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');

  it('is off until turned on, and the address is shown once', async () => {
    const api = await newUser();
    expect((await request(api, 'GET', '/account/calendar-feed')).json()).toEqual({ enabled: false, createdAt: null });
    const on = await turnOn(api);
    expect(on).toMatchObject({ enabled: true, createdAt: '2026-11-22T12:00:00' });
    expect(on.url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const status = (await request(api, 'GET', '/account/calendar-feed')).json();
    expect(status).toEqual({ enabled: true, createdAt: '2026-11-22T12:00:00' });
    // Only the token's hash is stored.
    const token = new URL(on.url).pathname.split('/').pop()?.replace('.ics', '') ?? '';
    const rows = await t.app.db.selectFrom('calendar_feeds').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
  });

  it('lists unpaid invoices with due dates as all-day events with a stable UID and a link back', async () => {
    const api = await newUser();
    const power = await createBill(api, { name: 'Power Co' });
    const client = await createBill(api, { name: 'Acme' });
    const old = await createBill(api, { name: 'Old Landlord' });
    const due = await createEntry(api, {
      billId: power.id,
      date: '2026-11-01',
      dueDate: '2026-11-30',
      amount: 120.5,
      flow: 'expense',
      services: 'November',
    });
    const income = await createEntry(api, {
      billId: client.id,
      date: '2026-11-10',
      dueDate: '2026-12-10',
      amount: 500,
      flow: 'income',
    });
    const partly = await createEntry(api, {
      billId: power.id,
      date: '2026-10-01',
      dueDate: '2026-10-31',
      amount: 80,
      flow: 'expense',
    });
    await createPayment(api, { entryId: partly.entryId, amount: 30 });
    const paid = await createEntry(api, { billId: power.id, date: '2026-11-01', dueDate: '2026-11-15', amount: 10 });
    await createPayment(api, { entryId: paid.entryId, amount: 10 });
    await createEntry(api, { billId: power.id, date: '2026-11-01', amount: 99 }); // no due date
    await createEntry(api, { billId: power.id, date: '2026-01-01', dueDate: '2026-08-01', amount: 7 }); // > 90 days ago
    await createEntry(api, { billId: old.id, date: '2026-11-01', dueDate: '2026-11-20', amount: 5 });
    await updateBill(api, { id: old.id, status: 0 });

    const { url } = await turnOn(api);
    const res = await fetchFeed(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const found = events(res.body).sort((a, b) => a.uid.localeCompare(b.uid));
    expect(found.map((e) => e.uid)).toEqual(
      [due, income, partly].map((e) => `billfold-invoice-${e.entryId}`).sort((a, b) => a.localeCompare(b)),
    );
    const byUid = (entryId: number) => found.find((e) => e.uid === `billfold-invoice-${entryId}`) as VEvent;
    const power1 = byUid(due.entryId);
    expect(power1.summary).toBe('Pay Power Co $120.50');
    expect(power1.datetype).toBe('date');
    expect(power1.start.dateOnly).toBe(true);
    const link = power1.url as unknown as string | { val: string };
    expect(typeof link === 'string' ? link : link.val).toMatch(
      new RegExp(`^http://localhost(:80)?/entries/${due.entryId}$`),
    );
    expect(power1.description).toContain(`Invoice #${due.invoiceId} of 2026-11-01`);
    expect(power1.description).toContain('November');
    expect(byUid(income.entryId).summary).toBe('Expect $500.00 from Acme');
    expect(byUid(partly.entryId).summary).toBe('Pay Power Co $50.00');
    // The all-day date is the due date itself, whatever the server's time zone.
    expect(res.body).toContain('DTSTART;VALUE=DATE:20261130');
  });

  it('a new address replaces the old one; turning it off ends it; another account’s token reads only its own', async () => {
    const api = await newUser();
    await createEntry(api, { date: '2026-11-01', dueDate: '2026-11-30' });
    const first = await turnOn(api);
    const second = await turnOn(api);
    expect(second.url).not.toBe(first.url);
    const gone = await fetchFeed(first.url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(FEED_GONE);
    expect((await fetchFeed(second.url)).statusCode).toBe(200);
    const off = await request(api, 'PUT', '/account/calendar-feed', { enabled: false });
    expect(off.json()).toEqual({ enabled: false, createdAt: null });
    expect((await fetchFeed(second.url)).statusCode).toBe(404);

    const other = await newUser();
    const { url } = await turnOn(other);
    expect(events((await fetchFeed(url)).body)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/calendar/not-a-token.ics' })).statusCode).toBe(404);
  });

  it('needs a session to turn on or off, and keeps feed addresses out of the log', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/account/calendar-feed' })).statusCode).toBe(401);
    const api = await newUser();
    const { url } = await turnOn(api);
    const token = new URL(url).pathname.split('/').pop() ?? '';
    await fetchFeed(url);
    expect(logs.join('')).toContain('/api/v1/calendar/');
    expect(logs.join('')).not.toContain(token.replace('.ics', ''));
  });
  it('needs the current password to turn on or regenerate, checked with the sign-in throttle; off needs none', async () => {
    const api = await newUser();
    const missing = await request(api, 'PUT', '/account/calendar-feed', { enabled: true });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'password: the current password is required to turn the feed on',
    });
    const wrong = await request(api, 'PUT', '/account/calendar-feed', { enabled: true, password: 'Wrong!Passw0rd' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'WRONG_PASSWORD', message: 'Current password is incorrect' });
    expect((await request(api, 'GET', '/account/calendar-feed')).json().enabled).toBe(false);
    const { url } = await turnOn(api);
    const regenerate = await request(api, 'PUT', '/account/calendar-feed', { enabled: true, password: 'nope' });
    expect(regenerate.statusCode).toBe(403);
    expect((await fetchFeed(url)).statusCode).toBe(200); // a refused regeneration leaves the address working
    // Ten wrong passwords in all (one above, nine here): the account's every password check is then throttled.
    for (let i = 0; i < 8; i++) {
      await request(api, 'PUT', '/account/calendar-feed', { enabled: true, password: 'Wrong!Passw0rd' });
    }
    const throttled = await request(api, 'PUT', '/account/calendar-feed', {
      enabled: true,
      password: api.session.password,
    });
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.json().message).toMatch(/^Too many wrong passwords\. Try again in \d+ minutes?\.$/);
    const off = await request(api, 'PUT', '/account/calendar-feed', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect((await fetchFeed(url)).statusCode).toBe(404);
    t.clock.advance(15 * 60_000);
  });

  it('a password change ends the feed; a new one needs the new password', async () => {
    const api = await newUser();
    const { url } = await turnOn(api);
    const newPassword = 'N3w!Passw0rd';
    const changed = await request(api, 'PUT', '/user', { password: api.session.password, newPassword });
    expect(changed.statusCode).toBe(200);
    const gone = await fetchFeed(url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(FEED_GONE);
    const fresh: Api = {
      app: t.app,
      session: await signIn(t.app, { ...api.session, password: newPassword }),
    };
    expect((await request(fresh, 'GET', '/account/calendar-feed')).json()).toEqual({ enabled: false, createdAt: null });
    const again = await turnOn(fresh);
    expect((await fetchFeed(again.url)).statusCode).toBe(200);
  });

  it('deactivation ends the feed, and signing in again (reactivation) does not bring it back', async () => {
    const api = await newUser();
    const { url } = await turnOn(api);
    const off = await request(api, 'PUT', '/user', { password: api.session.password, recycle: true });
    expect(off.statusCode).toBe(200);
    expect((await fetchFeed(url)).statusCode).toBe(404);
    const back: Api = { app: t.app, session: await signIn(t.app, api.session) };
    expect((await fetchFeed(url)).statusCode).toBe(404);
    expect((await request(back, 'GET', '/account/calendar-feed')).json().enabled).toBe(false);
  });

  it('a password change in the database ends the feed even without the service (the token version decides)', async () => {
    const api = await newUser();
    const { url } = await turnOn(api);
    await t.app.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('username', '=', api.session.username)
      .execute();
    expect((await fetchFeed(url)).statusCode).toBe(404);
    expect((await request(api, 'GET', '/account/calendar-feed')).statusCode).toBe(401);
  });

  it('answers with its own caching header, Cache-Control: private, max-age=300; its errors and other API answers are no-store', async () => {
    const api = await newUser();
    const { url } = await turnOn(api);
    const ok = await fetchFeed(url);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('private, max-age=300');
    const missing = await t.app.inject({ method: 'GET', url: '/api/v1/calendar/not-a-token.ics' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect((await request(api, 'GET', '/account/calendar-feed')).headers['cache-control']).toBe('no-store');
  });

  it('covers every ledger the user is a member of, each event naming its ledger when there is more than one', async () => {
    const me = await newUser();
    const partner = await newUser();
    const mine = await createBill(me, { name: 'Power Co' });
    await createEntry(me, { billId: mine.id, date: '2026-11-01', dueDate: '2026-11-30', amount: 40, flow: 'expense' });
    const on = await turnOn(me);
    const summaries = async () =>
      events((await fetchFeed(on.url)).body)
        .map((e) => String(e.summary))
        .sort();
    // One ledger: the events as they always were.
    expect(await summaries()).toEqual(['Pay Power Co $40.00']);
    // The partner's ledger, shared with me: its invoices join the feed, and each event says whose it is.
    const household = await t.app.db
      .selectFrom('ledgers as l')
      .innerJoin('users as u', 'u.id', 'l.personal_user_id')
      .select('l.id')
      .where('u.username', '=', partner.session.username)
      .executeTakeFirstOrThrow();
    await t.app.db.updateTable('ledgers').set({ name: 'Household' }).where('id', '=', household.id).execute();
    const meId = (
      await t.app.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', me.session.username)
        .executeTakeFirstOrThrow()
    ).id;
    await t.app.db
      .insertInto('ledger_members')
      .values({ ledger_id: household.id, user_id: meId, role: 'viewer', joined_at: 1 })
      .execute();
    const water = await createBill(partner, { name: 'Water Co' });
    await createEntry(partner, {
      billId: water.id,
      date: '2026-11-02',
      dueDate: '2026-11-29',
      amount: 25,
      flow: 'expense',
    });
    expect(await summaries()).toEqual(['Pay Power Co $40.00 (Personal)', 'Pay Water Co $25.00 (Household)']);
    // Removed from it, the feed is mine alone again.
    await t.app.db
      .deleteFrom('ledger_members')
      .where('ledger_id', '=', household.id)
      .where('user_id', '=', meId)
      .execute();
    expect(await summaries()).toEqual(['Pay Power Co $40.00']);
  });
});
