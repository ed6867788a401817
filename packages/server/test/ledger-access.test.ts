import { LEDGER_OWNER_ONLY_MESSAGE, LEDGER_READ_ONLY_MESSAGE, type LedgerRole } from '@billfold/contract/ledgers';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, request } from './helpers/domain.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { apiRoutes } from './helpers/route-table.ts';
import { personalLedgerOf, userIdOf } from './helpers/seed.ts';

/** Routes that need no sign-in: each is here on purpose (plugins/ledger.ts, `routeGroups`). */
const PUBLIC = new Set([
  'GET /api/v1/health',
  'HEAD /api/v1/health',
  'POST /api/v1/auth/create',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/login/mfa',
  'POST /api/v1/auth/refresh',
  'POST /api/v1/account/email/verify',
  // A forgotten password (docs/decisions/0723-password-reset.md).
  'POST /api/v1/auth/password-reset',
  'POST /api/v1/auth/password-reset/confirm',
  'GET /api/v1/calendar/:file',
  'HEAD /api/v1/calendar/:file',
  // Sign-in with an identity provider (docs/decisions/0722-openid-connect-sign-in.md).
  'GET /api/v1/auth/methods',
  'HEAD /api/v1/auth/methods',
  'GET /api/v1/auth/oidc/start',
  'HEAD /api/v1/auth/oidc/start',
  'GET /api/v1/auth/oidc/callback',
  'HEAD /api/v1/auth/oidc/callback',
  'POST /api/v1/auth/oidc/exchange',
  // The API's own description (plugins/openapi.ts).
  'GET /api/v1/openapi.json',
  'HEAD /api/v1/openapi.json',
]);

/** Routes of what is the user's alone (account, MFA, e-mail, reminders, calendar settings): no ledger. */
const ACCOUNT = new Set([
  'GET /api/v1/user',
  'HEAD /api/v1/user',
  'PUT /api/v1/user',
  'GET /api/v1/account/email',
  'HEAD /api/v1/account/email',
  'POST /api/v1/account/email/verification',
  'GET /api/v1/user/mfa',
  'HEAD /api/v1/user/mfa',
  'POST /api/v1/user/mfa/setup',
  'POST /api/v1/user/mfa/enable',
  'POST /api/v1/user/mfa/recovery-codes',
  'GET /api/v1/account/calendar-feed',
  'HEAD /api/v1/account/calendar-feed',
  'PUT /api/v1/account/calendar-feed',
  'GET /api/v1/account/reminders',
  'HEAD /api/v1/account/reminders',
  'PUT /api/v1/account/reminders',
  // The account's link to an identity provider and its API tokens (ADRs 0721, 0722).
  'GET /api/v1/account/oidc',
  'HEAD /api/v1/account/oidc',
  'POST /api/v1/account/oidc/link',
  'POST /api/v1/account/oidc/unlink',
  'GET /api/v1/tokens',
  'HEAD /api/v1/tokens',
  'POST /api/v1/tokens',
  'DELETE /api/v1/tokens/:id',
  // The user's notification channels and delivery log (docs/api/notifications.md).
  'GET /api/v1/notification-channels',
  'HEAD /api/v1/notification-channels',
  'POST /api/v1/notification-channels',
  'PATCH /api/v1/notification-channels/:id',
  'DELETE /api/v1/notification-channels/:id',
  'POST /api/v1/notification-channels/:id/test',
  'GET /api/v1/notification-deliveries',
  'HEAD /api/v1/notification-deliveries',
  'POST /api/v1/notification-deliveries/:id/send-again',
  // Ledgers, members and invitations: the ledger is in the path and each route checks the caller's place in it
  // (modules/ledgers), so no header applies (docs/api/ledgers.md).
  'GET /api/v1/ledgers',
  'HEAD /api/v1/ledgers',
  'POST /api/v1/ledgers',
  'PATCH /api/v1/ledgers/:id',
  'DELETE /api/v1/ledgers/:id',
  'GET /api/v1/ledgers/:id/members',
  'HEAD /api/v1/ledgers/:id/members',
  'PATCH /api/v1/ledgers/:id/members/:userId',
  'DELETE /api/v1/ledgers/:id/members/:userId',
  'POST /api/v1/ledgers/:id/invitations',
  'GET /api/v1/ledgers/:id/invitations',
  'HEAD /api/v1/ledgers/:id/invitations',
  'DELETE /api/v1/ledgers/:id/invitations/:invitationId',
  'GET /api/v1/invitations/:token',
  'HEAD /api/v1/invitations/:token',
  'POST /api/v1/invitations/:token/accept',
]);

/** Ledger routes that need the owner, not merely a writer. */
const OWNER_ONLY = new Set(['POST /api/v1/account/import']);

const LEDGER_NOT_FOUND = 'Ledger not found';

/** A ledger route's path with every parameter filled. */
const concrete = (path: string) =>
  path
    .replace(':entityType', 'Invoice')
    .replace(':file', 'x.ics')
    .replace(/:[A-Za-z]+/g, '1');

/** Adds `user` to `ledger` with `role`, as an accepted invitation does (the membership routes are another module's). */
async function join(t: TestApp, ledgerId: number, session: Session, role: LedgerRole): Promise<void> {
  await t.app.db
    .insertInto('ledger_members')
    .values({ ledger_id: ledgerId, user_id: await userIdOf(t.app.db, session.username), role, joined_at: 1 })
    .execute();
}

/** The caller's requests in `ledgerId`, by the `Billfold-Ledger` header. */
const inLedger = (api: Api, ledgerId: number): Api => ({
  app: api.app,
  session: { ...api.session, headers: { ...api.session.headers, 'billfold-ledger': String(ledgerId) } as never },
});

/** Every row of every data table, as text: a refused request must leave it as it was. */
async function everything(t: TestApp): Promise<string> {
  const tables = [
    'bills',
    'entries',
    'payments',
    'schedules',
    'categories',
    'imports',
    'attachments',
    'ledgers',
    'ledger_members',
    'ledger_data_versions',
  ] as const;
  const rows = [];
  for (const table of tables) rows.push(await t.app.db.selectFrom(table).selectAll().execute());
  return JSON.stringify(rows);
}

describe.each(dialects)('the request’s ledger and role (%s)', (dialect) => {
  let t: TestApp;
  let owner: Api;
  let other: Api;
  let ownerLedger: number;
  let otherLedger: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = { app: t.app, session: await signUp(t.app) };
    other = { app: t.app, session: await signUp(t.app) };
    ownerLedger = await personalLedgerOf(t.app.db, owner.session.username);
    otherLedger = await personalLedgerOf(t.app.db, other.session.username);
    await createPayment(owner);
  });
  afterAll(() => t.close());

  it('puts every route in a group: public ones answer without a session, every other one needs it', async () => {
    const routes = apiRoutes(t.app);
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      const [method, path] = route.split(' ') as [HTTPMethods, string];
      if (PUBLIC.has(route)) continue;
      const res = await t.app.inject({ method, url: concrete(path) });
      expect({ route, status: res.statusCode }).toEqual({ route, status: 401 });
    }
  });

  it('guards every data route by the ledger: one the caller is not a member of answers 404, whatever the route', async () => {
    const stranger = inLedger(other, ownerLedger);
    const before = await everything(t);
    let ledgerRoutes = 0;
    for (const route of apiRoutes(t.app)) {
      if (PUBLIC.has(route)) continue;
      const [method, path] = route.split(' ') as [HTTPMethods, string];
      const res = await t.app.inject({ method, url: concrete(path), headers: stranger.session.headers });
      if (ACCOUNT.has(route)) {
        // HEAD answers have no body.
        const message = res.body === '' ? undefined : res.json<{ message?: string }>().message;
        expect({ route, message }).not.toEqual({
          route,
          message: LEDGER_NOT_FOUND,
        });
        continue;
      }
      ledgerRoutes += 1;
      // HEAD answers carry the status only.
      if (method === 'HEAD') {
        expect({ route, status: res.statusCode }).toEqual({ route, status: 404 });
        continue;
      }
      expect({ route, status: res.statusCode, body: res.json() }).toMatchObject({
        route,
        status: 404,
        body: { code: 'NOT_FOUND', message: LEDGER_NOT_FOUND },
      });
    }
    expect(ledgerRoutes).toBeGreaterThan(30);
    expect(await everything(t)).toBe(before);
  });

  it('refuses every write of a viewer with 403 LEDGER_READ_ONLY before reading the body, and stores nothing', async () => {
    const viewerSession = await signUp(t.app);
    await join(t, ownerLedger, viewerSession, 'viewer');
    const viewer = inLedger({ app: t.app, session: viewerSession }, ownerLedger);
    const before = await everything(t);
    for (const route of apiRoutes(t.app)) {
      if (PUBLIC.has(route) || ACCOUNT.has(route)) continue;
      const [method, path] = route.split(' ') as [HTTPMethods, string];
      if (method === 'GET' || method === 'HEAD') continue;
      const res = await t.app.inject({
        method,
        url: concrete(path),
        headers: viewer.session.headers,
        payload: { name: 'Viewer was here' },
      });
      const expected = OWNER_ONLY.has(route)
        ? { code: 'LEDGER_OWNER_ONLY', message: LEDGER_OWNER_ONLY_MESSAGE }
        : { code: 'LEDGER_READ_ONLY', message: LEDGER_READ_ONLY_MESSAGE };
      expect({ route, status: res.statusCode, body: res.json() }).toMatchObject({ route, status: 403, body: expected });
    }
    expect(await everything(t)).toBe(before);
    // Reads and exports are a viewer's.
    const list = await request(viewer, 'GET', '/entries');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ total: number }>().total).toBe(1);
    expect((await request(viewer, 'GET', '/account/export')).statusCode).toBe(200);
  });

  it('lets an editor write in the ledger the header names; without the header the caller’s personal ledger', async () => {
    const editorSession = await signUp(t.app);
    await join(t, otherLedger, editorSession, 'editor');
    const personal = { app: t.app, session: editorSession };
    const shared = inLedger(personal, otherLedger);
    const entry = await createEntry(shared, { amount: 42 });
    const mine = await request(personal, 'GET', '/entries');
    expect(mine.json<{ total: number }>().total).toBe(0);
    const theirs = await request(other, 'GET', '/entries');
    expect(theirs.json<{ entries: { entryId: number }[] }>().entries.map((e) => e.entryId)).toEqual([entry.entryId]);
    const stored = await t.app.db.selectFrom('entries').select('ledger_id').where('id', '=', entry.entryId).execute();
    expect(stored).toEqual([{ ledger_id: otherLedger }]);
    // The same invoice by id outside its ledger is another ledger's: 404, as an item of another user.
    expect((await request(personal, 'GET', `/entries/${entry.entryId}`)).statusCode).toBe(404);
    expect((await request(shared, 'GET', `/entries/${entry.entryId}`)).statusCode).toBe(200);
    // An editor may not do what is the owner's.
    const imported = await request(shared, 'POST', '/account/import', {});
    expect(imported.json()).toMatchObject({
      code: 'LEDGER_OWNER_ONLY',
      message: LEDGER_OWNER_ONLY_MESSAGE,
    });
  });

  it('numbers invoices per ledger', async () => {
    const a = { app: t.app, session: await signUp(t.app) };
    const b = { app: t.app, session: await signUp(t.app) };
    const bLedger = await personalLedgerOf(t.app.db, b.session.username);
    await join(t, bLedger, a.session, 'editor');
    const first = await createEntry(a);
    const second = await createEntry(a);
    const inB = await createEntry(inLedger(a, bLedger));
    const byB = await createEntry(b);
    expect([first.invoiceId, second.invoiceId, inB.invoiceId, byB.invoiceId]).toEqual([1, 2, 1, 2]);
    const counters = await t.app.db
      .selectFrom('ledgers')
      .select('last_invoice_number')
      .where('id', 'in', [await personalLedgerOf(t.app.db, a.session.username), bLedger])
      .orderBy('id')
      .execute();
    expect(counters).toEqual([{ last_invoice_number: 2 }, { last_invoice_number: 2 }]);
  });

  it('ends a removed member’s access at once, cached pages and open sessions included', async () => {
    const memberSession = await signUp(t.app);
    await join(t, ownerLedger, memberSession, 'editor');
    const member = inLedger({ app: t.app, session: memberSession }, ownerLedger);
    const page = await request(member, 'GET', '/entries');
    expect(page.statusCode).toBe(200);
    expect((await request(member, 'GET', '/entries')).headers['cache-status']).toMatch(/hit/);
    expect((await request(member, 'GET', '/entries/stats')).statusCode).toBe(200);
    await t.app.db
      .deleteFrom('ledger_members')
      .where('ledger_id', '=', ownerLedger)
      .where('user_id', '=', await userIdOf(t.app.db, memberSession.username))
      .execute();
    for (const path of [
      '/entries',
      '/entries/stats',
      '/entries/trends',
      '/entries/due-summary',
      '/bills',
      '/entries/export',
    ]) {
      const res = await request(member, 'GET', path);
      expect({ path, status: res.statusCode, message: res.json().message }).toEqual({
        path,
        status: 404,
        message: LEDGER_NOT_FOUND,
      });
    }
    expect((await request(member, 'POST', '/bills', { name: 'After removal' })).statusCode).toBe(404);
  });

  it('answers 400 VALIDATION_FAILED for a header that is not a ledger id', async () => {
    for (const value of ['abc', '0', '-1', '1.5', '99999999999999999999', '1,2', ' ']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/entries',
        headers: { ...owner.session.headers, 'billfold-ledger': value },
      });
      expect({ value, status: res.statusCode, code: res.json().code }).toEqual({
        value,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
    // Its own id is as good as no header.
    const own = await request(inLedger(owner, ownerLedger), 'GET', '/entries');
    expect(own.json<{ total: number }>().total).toBe(1);
  });

  it('answers an entity’s price history only in its own ledger, to a viewer too', async () => {
    const a = { app: t.app, session: await signUp(t.app) };
    const b = { app: t.app, session: await signUp(t.app) };
    const bLedger = await personalLedgerOf(t.app.db, b.session.username);
    await join(t, bLedger, a.session, 'viewer');
    const theirs = await createBill(b, { name: 'Water' });
    await createEntry(b, { billId: theirs.id, date: '2026-01-10', amount: 30, flow: 'expense' });
    const url = `/bills/${theirs.id}/price-history`;
    // In the viewer's own ledger the entity does not exist; in the shared one the viewer reads it.
    const elsewhere = await request(a, 'GET', url);
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([404, 'NOT_FOUND']);
    const shared = await request(inLedger(a, bLedger), 'GET', url);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json<{ points: { amount: number }[] }>().points.map((p) => p.amount)).toEqual([30]);
  });

  it('keeps the entity list, the bin and the stats of each ledger apart', async () => {
    const a = { app: t.app, session: await signUp(t.app) };
    const b = { app: t.app, session: await signUp(t.app) };
    const bLedger = await personalLedgerOf(t.app.db, b.session.username);
    await join(t, bLedger, a.session, 'owner');
    const shared = inLedger(a, bLedger);
    await createBill(a, { name: 'Mine' });
    const theirs = await createBill(shared, { name: 'Ours' });
    await request(shared, 'PUT', '/bills', { id: theirs.id, recycle: true });
    const names = async (api: Api) => (await request(api, 'GET', '/bills')).json<{ billDTOList: { name: string }[] }>();
    expect((await names(a)).billDTOList.map((x) => x.name)).toEqual(['Mine']);
    expect((await names(b)).billDTOList.map((x) => x.name)).toEqual([]);
    const bin = (await request(b, 'GET', '/recycle')).json<{ recycleItems: { name?: string }[] }>();
    expect(bin.recycleItems).toHaveLength(1);
    expect((await request(a, 'GET', '/recycle')).json<{ recycleItems: unknown[] }>().recycleItems).toHaveLength(0);
  });
});
