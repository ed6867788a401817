import type { BillOverviewList } from '@billfold/contract/bills';
import type { DueSummary } from '@billfold/contract/due';
import type { EntryList } from '@billfold/contract/entries';
import type { Ledger } from '@billfold/contract/ledgers';
import { LEDGER_HEADER } from '@billfold/contract/ledgers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataVersionRepository } from '../src/modules/read-model/data-version.repository.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS, LedgerIndexes } from '../src/modules/read-model/ledger-indexes.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { attach, pdfFile } from './helpers/attachments.ts';
import { type Api, createBill, createEntry, request } from './helpers/domain.ts';
import { createLedger, join, newMember } from './helpers/ledgers.ts';
import { createSchedule } from './helpers/schedules.ts';

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
  it('answers concurrent requests each as its own check would, with the checks sent together', async () => {
    const stranger = await newMember(t.app);
    // Every caller and ledger: the owner and the viewer in both ledgers, a stranger in the household and their own.
    const asks: { api: Api; ledger?: number; method: 'GET' | 'POST'; status: number }[] = [
      { api: owner, method: 'GET', status: 200 },
      { api: owner, ledger: household, method: 'GET', status: 200 },
      { api: member, ledger: household, method: 'GET', status: 200 },
      { api: member, ledger: household, method: 'POST', status: 403 },
      { api: member, method: 'GET', status: 200 },
      { api: stranger, ledger: household, method: 'GET', status: 404 },
      { api: stranger, method: 'GET', status: 200 },
    ];
    const all = Array.from({ length: 4 }, () => asks).flat();
    statements = [];
    const answers = await Promise.all(
      all.map(({ api, ledger, method }) =>
        t.app.inject({
          method,
          url: '/api/v1/bills',
          headers: { ...api.session.headers, ...(ledger === undefined ? {} : { [LEDGER_HEADER]: String(ledger) }) },
          ...(method === 'POST' ? { payload: { name: 'Gas' } } : {}),
        }),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(all.map((a) => a.status));
    const checks = statements.filter((q) => /ledger_members/.test(q) && /ledger_data_versions/.test(q));
    expect(checks.length).toBeGreaterThan(0);
    // On PostgreSQL a check is a round trip: the requests that arrive while one is under way share the next.
    if (dialect === 'postgres') expect(checks.length).toBeLessThan(all.length);
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

/**
 * Past the cache, a list page and the due summary's lists are built from the ledger index's columns (ADR 0405): no
 * statement reads `entries` for them, and a page asks for file counts only when the index marks one of its invoices.
 */
describe.each(dialects)('answers built from the ledger index on %s', (dialect) => {
  let t: TestApp;
  let owner: Api;
  let entryId: number;
  let statements: string[] = [];

  const counted = async (url: string) => {
    statements = [];
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { ...owner.session.headers, 'cache-control': 'no-cache' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { res, statements: [...statements] };
  };
  const readsEntries = (ran: string[]) => ran.filter((s) => /from "entries"/.test(s));

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { onStatement: (sql) => statements.push(sql) });
    owner = await newMember(t.app);
    const bill = await createBill(owner, { name: 'Power' });
    entryId = (await createEntry(owner, { billId: bill.id, amount: 40, dueDate: '2026-12-03' })).entryId;
    await createEntry(owner, { billId: bill.id, amount: 12.5, date: '2026-10-01' });
    // The first stats load the small ledger's index.
    expect((await counted('/entries/stats')).res.headers['server-timing']).toBe('ledger;desc=index');
  });
  afterAll(() => t.close());

  it('lists a page after the hook’s one statement, and asks for file counts only for a page with files', async () => {
    const plain = await counted('/entries?sortField=amount&sortOrder=desc');
    expect(plain.res.json<EntryList>().entries.map((e) => [e.amount, e.attachmentCount])).toEqual([
      [40, 0],
      [12.5, 0],
    ]);
    expect(plain.statements).toHaveLength(1);

    expect((await attach(owner, 'entries', entryId, pdfFile())).statusCode).toBe(201);
    await counted('/entries'); // the index catches up with the upload
    const filed = await counted('/entries?sortField=amount&sortOrder=desc');
    expect(filed.res.json<EntryList>().entries.map((e) => e.attachmentCount)).toEqual([1, 0]);
    expect(filed.statements).toHaveLength(2);
    expect(filed.statements[1]).toMatch(/attachments/);
    expect(readsEntries(filed.statements)).toEqual([]);
  });

  it('lists the due summary’s invoices without reading entries', async () => {
    const { res, statements: ran } = await counted('/entries/due-summary?today=2026-12-01');
    expect(res.json<DueSummary>().next7.entries.map((e) => e.entryId)).toEqual([entryId]);
    expect(readsEntries(ran)).toEqual([]);
  });

  it('answers the Entities page and the due summary’s schedules after the hook’s one statement while the version stays', async () => {
    const rent = await createBill(owner, { name: 'Rent' });
    await createSchedule(owner, rent.id, { firstDate: '2027-01-01' });
    // After the write, the first of them reads the entity snapshot (on SQLite off the loop, where the log does not
    // see it) and the first due summary the index's change log.
    const first = await counted('/bills/overview');
    expect(first.res.json<BillOverviewList>().bills.map((b) => [b.name, b.schedules.length])).toEqual([
      ['Power', 0],
      ['Rent', 1],
    ]);
    if (dialect === 'postgres') expect(first.statements.filter((s) => /"schedules"/.test(s)).length).toBeGreaterThan(0);
    await counted('/entries/due-summary?today=2026-12-20');
    for (const url of [
      '/bills/overview?pageSize=1&pageNum=1',
      '/bills/overview?name=EN&sortField=balance&sortOrder=desc',
      '/bills/overview?status=all&sortField=nextDue',
      '/entries/due-summary?today=2026-12-28',
    ]) {
      const again = await counted(url);
      expect(again.statements, url).toHaveLength(1);
    }
    const past = await counted('/bills/overview?pageSize=1&pageNum=3');
    expect(past.res.json<BillOverviewList>()).toEqual({ total: 2, bills: [] });
    const due = await counted('/entries/due-summary?today=2026-12-28');
    expect(due.res.json<DueSummary>().next30.scheduled.invoices.map((o) => o.name)).toEqual(['Rent']);
  });
});

/**
 * `LedgerIndexes.read` with the version the request read as it began (`known`): it answers at that version without
 * reading it again; an index already past it answers as it is, after one read of the version; a version that went
 * back below the index reads the index afresh.
 */
describe.each(dialects)('the ledger index at the request’s version on %s', (dialect) => {
  let t: TestApp;
  let owner: Api;
  let ledgerId: number;
  let billId: number;
  let indexes: LedgerIndexes;
  const versionReads: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      dialect,
      {},
      { onStatement: (sql) => sql.includes('ledger_data_versions') && versionReads.push(sql) },
    );
    owner = await newMember(t.app);
    const { ledgers } = (await request(owner, 'GET', '/ledgers')).json<{ ledgers: Ledger[] }>();
    ledgerId = (ledgers.find((l) => l.personal) as Ledger).id;
    billId = (await createBill(owner, { name: 'Power' })).id;
    await createEntry(owner, { billId, amount: 40 });
    // Small ledgers load during their first read.
    indexes = new LedgerIndexes(t.app.db, new DataVersionRepository(t.app.db), async () => 0, {
      ...DEFAULT_LEDGER_INDEX_OPTIONS,
    });
  });
  afterAll(() => t.close());

  const current = () => new DataVersionRepository(t.app.db).version(ledgerId);
  const read = async (known?: number) => {
    versionReads.length = 0;
    const result = await indexes.read(ledgerId, (index) => ({ index, version: index.version }), known);
    return { index: result?.value.index, version: result?.value.version, versionReads: versionReads.length };
  };

  it('answers at the known version without reading it, and catches up to a newer known version', async () => {
    const loaded = await read();
    expect(loaded.index).toBeDefined();
    const at = await current();
    const same = await read(at);
    expect(same).toEqual({ index: loaded.index, version: at, versionReads: 0 });

    await createEntry(owner, { billId, amount: 41 });
    const newer = await current();
    const caughtUp = await read(newer);
    expect(caughtUp).toEqual({ index: loaded.index, version: newer, versionReads: 0 });
  });

  it('answers from an index already past the known version as it is, after one read of the version', async () => {
    const before = await current();
    await createEntry(owner, { billId, amount: 42 });
    const ahead = await read();
    expect(ahead.version).toBe(await current());
    // A request that read its version before that write.
    const behind = await read(before);
    expect(behind).toEqual({ index: ahead.index, version: ahead.version, versionReads: 1 });
  });

  it('reads the index afresh when the version went back below it', async () => {
    const kept = await read();
    await t.app.db.updateTable('ledger_data_versions').set({ version: 0 }).where('ledger_id', '=', ledgerId).execute();
    const afresh = await read(0);
    expect(afresh.index).toBeDefined();
    expect(afresh.index).not.toBe(kept.index);
    expect(afresh.version).toBe(0);
  });
});
