import type { Entry } from '@billfold/contract/entries';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildRollups, rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  request,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { seedBills, seedEntries, userIdOf } from './helpers/seed.ts';

/**
 * The rollup tables (migration 2026-11-23T00-00_rollups) stay equal to a recomputation from the base tables
 * after every kind of write the API makes, on both databases.
 */
describe.each(dialects)('rollups stay exact under every write path (%s)', (dialect) => {
  let t: TestApp;
  let api: Api;
  let other: Api;

  const expectExact = async () => expect(await rollupDifferences(t.app.db)).toEqual([]);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
    other = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(() => t.close());

  it('invoices: create, edit amount, date, flow and entity, delete and restore', async () => {
    const a = await createBill(api, { category: 'Groceries' });
    const b = await createBill(api, { category: 'Utilities' });
    const e1 = await createEntry(api, { billId: a.id, amount: 100, date: '2026-10-31' });
    const e2 = await createEntry(api, { billId: a.id, amount: 50, flow: 'expense' });
    await createEntry(other, { amount: 10 });
    await expectExact();
    await editEntry(api, { entryId: e1.entryId, amount: 80 });
    await editEntry(api, { entryId: e1.entryId, date: '2026-09-15' });
    await editEntry(api, { entryId: e1.entryId, flow: 'expense' });
    await editEntry(api, { entryId: e2.entryId, billId: b.id });
    await expectExact();
    await editEntry(api, { entryId: e2.entryId, recycle: true });
    await expectExact();
    await editEntry(api, { entryId: e2.entryId, recycle: false });
    await expectExact();
  });

  it('payments: create (partial, paid, overpaid), edit amount and method, delete and restore', async () => {
    const e = await createEntry(api, { amount: 100 });
    const p1 = await createPayment(api, { entryId: e.entryId, amount: 40 });
    await expectExact();
    const p2 = await createPayment(api, { entryId: e.entryId, amount: 60, type: 'credit', medium: 'web' });
    await expectExact();
    await createPayment(api, { entryId: e.entryId, amount: 5, type: 'cash', medium: 'person' });
    await expectExact();
    await updatePayment(api, { paymentId: p1.paymentId, amount: 10 });
    await updatePayment(api, { paymentId: p2.paymentId, type: 'check', medium: 'mail' });
    await updatePayment(api, { paymentId: p2.paymentId, notes: 'only notes' });
    await expectExact();
    await updatePayment(api, { paymentId: p1.paymentId, recycle: true });
    await expectExact();
    await updatePayment(api, { paymentId: p1.paymentId, recycle: false });
    await expectExact();
    // The invoice's amount moves it between pay states with its payments.
    await editEntry(api, { entryId: e.entryId, amount: 1000 });
    await expectExact();
    await editEntry(api, { entryId: e.entryId, recycle: true });
    await expectExact();
    await editEntry(api, { entryId: e.entryId, recycle: false });
    await expectExact();
  });

  it('entities: rename, recategorise, internal, archive and unarchive, delete and restore with their invoices', async () => {
    const bill = await createBill(api, { category: 'Dining' });
    for (let i = 0; i < 4; i++) {
      const e = await createEntry(api, { billId: bill.id, amount: 20 + i, date: `2026-0${i + 1}-10` });
      await createPayment(api, { entryId: e.entryId, amount: 20 + i, type: i % 2 ? 'credit' : 'debit', medium: 'web' });
    }
    const own = await createEntry(api, { billId: bill.id, amount: 7 });
    const ownPayment = await createPayment(api, { entryId: own.entryId, amount: 3 });
    await updatePayment(api, { paymentId: ownPayment.paymentId, recycle: true });
    await expectExact();
    await updateBill(api, { ...bill, name: `${bill.name} renamed`, category: 'Shopping' });
    await expectExact();
    await updateBill(api, { ...bill, name: `${bill.name} renamed`, category: 'Shopping', internal: true });
    await expectExact();
    await updateBill(api, { ...bill, name: `${bill.name} renamed`, category: 'Shopping', internal: true, status: 0 });
    await expectExact();
    await updateBill(api, { ...bill, name: `${bill.name} renamed`, category: 'Shopping', internal: true, status: 1 });
    await expectExact();
    await updateBill(api, {
      ...bill,
      name: `${bill.name} renamed`,
      category: 'Shopping',
      internal: true,
      recycle: true,
    });
    await expectExact();
    await updateBill(api, {
      ...bill,
      name: `${bill.name} renamed`,
      category: 'Shopping',
      internal: true,
      recycle: false,
    });
    await expectExact();
  });

  it('recycle bin restores through POST /recycle/restore', async () => {
    const e = await createEntry(api, { amount: 30 });
    const p = await createPayment(api, { entryId: e.entryId, amount: 30 });
    await updatePayment(api, { paymentId: p.paymentId, recycle: true });
    expect(
      (await request(api, 'POST', '/recycle/restore', { entityType: 'Payment', entityId: p.paymentId })).statusCode,
    ).toBe(200);
    await editEntry(api, { entryId: e.entryId, recycle: true });
    expect(
      (await request(api, 'POST', '/recycle/restore', { entityType: 'Invoice', entityId: e.entryId })).statusCode,
    ).toBe(200);
    await expectExact();
  });

  it('bulk writes (direct inserts of a ledger) and deleting a whole account', async () => {
    const userId = await userIdOf(t.app.db, other.session.username);
    const bills = await seedBills(t.app.db, userId, [{ name: 'Bulk A' }, { name: 'Bulk B', archived: true }]);
    await seedEntries(
      t.app.db,
      userId,
      Array.from({ length: 60 }, (_, i) => ({
        bill: bills[i % 2] as (typeof bills)[number],
        date: `2025-${String(1 + (i % 12)).padStart(2, '0')}-0${1 + (i % 9)}`,
        amountCents: 1000 + i,
        payments: i % 3 === 0 ? [{ amountCents: 500 }, { amountCents: 700, recycledAt: 1 }] : [],
        recycledAt: i % 10 === 0 ? Date.now() : null,
      })),
    );
    await expectExact();
    await t.app.db.deleteFrom('users').where('id', '=', userId).execute();
    await expectExact();
  });

  it('concurrent writes of one user neither deadlock nor lose a change', async () => {
    const bill = await createBill(api, { category: 'Fuel' });
    const entries: Entry[] = [];
    for (let i = 0; i < 8; i++) entries.push(await createEntry(api, { billId: bill.id, amount: 100 + i }));
    const methods = [
      ['bank', 'ach'],
      ['credit', 'web'],
      ['cash', 'person'],
    ] as const;
    const writes = Array.from({ length: 48 }, (_, i) => {
      const entry = entries[i % entries.length] as (typeof entries)[number];
      const [type, medium] = methods[i % methods.length] as (typeof methods)[number];
      if (i % 12 === 11) return editEntry(api, { entryId: entry.entryId, amount: 40 + i });
      return createPayment(api, { entryId: entry.entryId, amount: 10 + (i % 7), type, medium });
    });
    const results = await Promise.allSettled(writes);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    await expectExact();
  });

  it('a rebuild reproduces the rollups exactly', async () => {
    await rebuildRollups(t.app.db);
    await expectExact();
    const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM entry_bill_totals`.execute(t.app.db);
    expect(Number(rows.rows[0]?.n)).toBeGreaterThan(0);
  });
});

/**
 * Every answer the rollups give equals the answer of the query over `entries`: list totals, deep pages
 * (the date seek) and stats, for filter sets of every kind. `min=0` (every amount is ≥ 0) keeps a request
 * off the rollups, so the same request with and without it compares the two paths.
 */
describe.each(dialects)('rollup answers equal the queries over entries (%s)', (dialect) => {
  let t: TestApp;
  let api: Api;
  const N = 6_000;

  const get = async (url: string) => {
    const res = await request(api, 'GET', url);
    if (res.statusCode !== 200) throw new Error(`GET ${url} → ${res.statusCode}: ${res.body}`);
    return res.json<unknown>();
  };
  const both = async (path: string, query: string) => {
    const sep = query === '' ? '' : '&';
    return [await get(`${path}?${query}`), await get(`${path}?${query}${sep}min=0`)];
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
    const userId = await userIdOf(t.app.db, api.session.username);
    const categories = ['Groceries', 'Utilities', 'Dining', 'Healthcare'] as const;
    const bills = await seedBills(
      t.app.db,
      userId,
      Array.from({ length: 12 }, (_, i) => ({
        name: `Ledger ${i}`,
        category: categories[i % categories.length],
        archived: i === 3 || i === 7,
        internal: i === 5,
      })),
    );
    const methods = [
      ['bank', 'ach'],
      ['credit', 'web'],
      ['cash', 'person'],
    ] as const;
    const start = Date.UTC(2024, 11, 1);
    await seedEntries(
      t.app.db,
      userId,
      Array.from({ length: N }, (_, i) => {
        const amountCents = 1_000 + ((i * 7_919) % 90_000);
        const [type, medium] = methods[i % 3] as (typeof methods)[number];
        const kind = i % 5;
        const payments =
          kind === 0
            ? []
            : kind === 1
              ? [{ amountCents: Math.floor(amountCents / 3), type, medium }]
              : kind === 2
                ? [{ amountCents, type, medium }]
                : kind === 3
                  ? [{ amountCents: amountCents + 500, type, medium }]
                  : [
                      { amountCents: amountCents - 100, type: 'debit', medium: 'web' },
                      { amountCents: 100, type, medium },
                      { amountCents: 999, type, medium, recycledAt: Date.now() },
                    ];
        return {
          bill: bills[(i * 5) % bills.length] as (typeof bills)[number],
          date: new Date(start + ((i * 7_919) % 730) * 86_400_000).toISOString().slice(0, 10),
          flow: i % 4 === 0 ? ('INCOMING' as const) : ('OUTGOING' as const),
          amountCents,
          payments,
          recycledAt: i % 97 === 0 ? Date.now() : null,
        };
      }),
    );
    expect(await rollupDifferences(t.app.db)).toEqual([]);
  }, 120_000);
  afterAll(() => t.close());

  const FILTERS = [
    '',
    'archives=false',
    'archives=true',
    'flow=income',
    'flow=expense',
    'flow=internal',
    'paid=true',
    'paid=false',
    'paid=overpaid',
    'paid=partial',
    'categoryList=Groceries',
    'categoryList=GROCERIES&categoryList=utilities&paid=false',
    'partyList=Ledger%202',
    'partyList=ledger%202&partyList=Ledger%204&flow=expense&archives=false',
    'startDate=2025-03-15',
    'endDate=2025-08-10',
    'startDate=2025-02-03&endDate=2025-02-20',
    'startDate=2025-01-31&endDate=2026-02-01&categoryList=Dining&paid=false',
    'startDate=2025-06-01&endDate=2025-06-30&flow=internal&archives=false',
    'startDate=2025-04-10&endDate=2026-01-05&paid=partial&flow=income',
  ];

  it.each(FILTERS)('list totals agree: %s', async (query) => {
    const [rolled, direct] = (await both('/entries', `${query}${query ? '&' : ''}pageSize=1`)) as { total: number }[];
    expect(rolled?.total).toBe(direct?.total);
  });

  it.each(FILTERS)('stats agree: %s', async (query) => {
    const [rolled, direct] = await both('/entries/stats', query);
    expect(rolled).toEqual(direct);
  });

  it.each(['', 'archives=false', 'startDate=2025-01-15&endDate=2026-10-20', 'paid=true'])(
    'deep pages in date order agree (seek): %s',
    async (query) => {
      for (const sortOrder of ['desc', 'asc']) {
        for (const pageNum of [50, 51, 57, 59, 60]) {
          const q = `${query}${query ? '&' : ''}sortField=date&sortOrder=${sortOrder}&pageSize=100&pageNum=${pageNum}`;
          const [rolled, direct] = (await both('/entries', q)) as { entries: { entryId: number }[] }[];
          expect(rolled?.entries.map((e) => e.entryId)).toEqual(direct?.entries.map((e) => e.entryId));
        }
      }
    },
  );
});
