import { LEDGER_HEADER } from '@billfold/contract/ledgers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry } from './helpers/domain.ts';
import { createLedger, join, newMember } from './helpers/ledgers.ts';

/**
 * The ledger group's hook (plugins/ledger.ts) reads the account, the caller's membership and the ledger's data
 * version in one statement: a repeated list answered from the cache costs one round trip to the database, whichever
 * way the ledger is chosen, and the answer still follows every write and every removal at once.
 */
describe.each(dialects)('the ledger group: one statement before the answer on %s', (dialect) => {
  let t: TestApp;
  let owner: Api;
  let member: Api;
  let household: number;
  let statements: string[] = [];

  const get = (api: Api, url: string, ledger?: number) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { ...api.session.headers, ...(ledger === undefined ? {} : { [LEDGER_HEADER]: String(ledger) }) },
    });
  /** The statements `send` ran, and its answer. */
  const counted = async (send: () => ReturnType<typeof get>) => {
    statements = [];
    const res = await send();
    return { res, statements: [...statements] };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { onStatement: (sql) => statements.push(sql) });
    owner = await newMember(t.app);
    member = await newMember(t.app);
    household = (await createLedger(owner)).id;
    await join(owner, household, member, 'viewer');
    const bill = await createBill(owner, { name: 'Power' });
    await createEntry(owner, { billId: bill.id, amount: 40 });
  });
  afterAll(() => t.close());

  it('answers a repeated list of the personal ledger from the cache after one statement', async () => {
    expect((await get(owner, '/entries')).statusCode).toBe(200);
    const { res, statements: ran } = await counted(() => get(owner, '/entries'));
    expect(res.headers['cache-status']).toBe('billfold; hit');
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatch(/users/);
    expect(ran[0]).toMatch(/ledger_members/);
    expect(ran[0]).toMatch(/ledger_data_versions/);
  });

  it('lets the ledger index answer at the version the hook read, without reading it again', async () => {
    // The first stats load the small ledger's index; the next ones are answered from it.
    expect((await get(owner, '/entries/stats')).headers['server-timing']).toBe('ledger;desc=index');
    for (const url of ['/entries/stats', '/entries/trends', '/entries/due-summary', '/forecast?months=2']) {
      const { res, statements: ran } = await counted(() => get(owner, url));
      expect(res.statusCode, res.body).toBe(200);
      // The due summary sends no Server-Timing; the same index answers it.
      if (!url.includes('due')) expect(res.headers['server-timing'], url).toBe('ledger;desc=index');
      expect(
        ran.filter((s) => s.includes('ledger_data_versions')),
        url,
      ).toHaveLength(1);
    }
  });

  it('does the same for a ledger named in the header, and a write makes the next list fresh', async () => {
    expect((await get(member, '/entries', household)).statusCode).toBe(200);
    const hit = await counted(() => get(member, '/entries', household));
    expect(hit.res.headers['cache-status']).toBe('billfold; hit');
    expect(hit.statements).toHaveLength(1);

    // The owner's write raises the household's version: the statement that checks the member reads it.
    const before = (await get(member, '/entries', household)).json<{ total: number }>().total;
    const inHousehold = {
      app: t.app,
      session: { ...owner.session, headers: { ...owner.session.headers, [LEDGER_HEADER]: String(household) } },
    } as Api;
    const bill = await createBill(inHousehold, { name: 'Water' });
    await createEntry(inHousehold, { billId: bill.id, amount: 9.99 });
    const after = await get(member, '/entries', household);
    expect(after.headers['cache-status']).not.toBe('billfold; hit');
    expect(after.json<{ total: number }>().total).toBe(before + 1);
  });

  it('refuses a removed member at once, a cached list included', async () => {
    const viewer = await newMember(t.app);
    const viewerId = await join(owner, household, viewer, 'viewer');
    expect((await get(viewer, '/entries', household)).statusCode).toBe(200);
    expect((await get(viewer, '/entries', household)).headers['cache-status']).toBe('billfold; hit');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/ledgers/${household}/members/${viewerId}`,
      headers: owner.session.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const refused = await counted(() => get(viewer, '/entries', household));
    expect(refused.res.statusCode).toBe(404);
    expect(refused.statements).toHaveLength(1);
  });

  it('still refuses a revoked session (a password change raises token_version) before it reads the ledger', async () => {
    const other = await newMember(t.app);
    expect((await get(other, '/entries')).statusCode).toBe(200);
    await t.app.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('username', '=', other.session.username)
      .execute();
    const res = await get(other, '/entries');
    expect(res.statusCode).toBe(401);
    expect(res.json<{ message: string }>().message).toBe('Unauthorized: access token revoked');
  });
  it('refuses a malformed ledger header with 400 only once the caller is known (an inactive account: 401)', async () => {
    const other = await newMember(t.app);
    const bad = (api: Api) =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/entries',
        headers: { ...api.session.headers, [LEDGER_HEADER]: 'household' },
      });
    const refused = await bad(other);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ code: string }>().code).toBe('VALIDATION_FAILED');
    await t.app.db
      .updateTable('users')
      .set({ deactivated_at: t.clock.now() })
      .where('username', '=', other.session.username)
      .execute();
    const inactive = await bad(other);
    expect(inactive.statusCode).toBe(401);
    expect(inactive.json<{ message: string }>().message).toBe('Unauthorized: account not active');
  });
});
