import { categoryKey } from '@billfold/contract/categories';
import { addDays, utcDate } from '@billfold/contract/dates';
import type { EntryFilters, EntryList } from '@billfold/contract/entries';
import type { Stats } from '@billfold/contract/stats';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Db } from '../src/db/database.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS } from '../src/modules/read-model/ledger-indexes.ts';
import { DEFAULT_READ_MODEL_OPTIONS, type ReadModelOptions } from '../src/modules/read-model/plan.ts';
import { ReadModelRepository } from '../src/modules/read-model/read-model.repository.ts';
import { toScope } from '../src/modules/read-model/scope.ts';
import { ENTRY_SUM_NAMES, ENTRY_SUMS } from '../src/modules/read-model/sums.ts';
import { createTestApp, dialects, type TestApp, testClock, testConfig } from './helpers/app.ts';
import { type Combination, drawCombination, filterQuery } from './helpers/combinations.ts';
import { sortedNumbers } from './helpers/entry-order.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { random } from './helpers/random.ts';
import { referenceStats } from './helpers/reference-stats.ts';
import {
  type SeededBill,
  type SeededEntry,
  seedAttachments,
  seedBills,
  seedCategories,
  seedEntries,
  userIdOf,
} from './helpers/seed.ts';

/**
 * Equivalence of the read model with a plain in-memory model: filter combinations drawn at random from the
 * whole filter panel (every field, the due filters, the 12 sorts both ways, any page), on a seeded ledger, on both databases.
 * Each combination runs on two servers over the same database: one with the large-ledger thresholds lowered so
 * that deep date pages seek and the largest payment is walked from the top, one with them out of reach. Every
 * total, page, stats answer and CSV export must equal the model's.
 */

const SEED = Number(process.env.READ_MODEL_SEED ?? 20261123);
/** The ledger index off: every read runs the SQL plan. */
const SQL_ONLY = { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 };
const CASES = 40;
/** The seeded ledger's dates: three years from here. */
const FIRST_DAY = '2023-01-01';

/** The server's date when a request sends no `today`: the test clock's start. */
const SERVER_TODAY = utcDate(testClock().now());

/** A category filter names a built-in category or one of the user's own in any case, spacing or `_` for space. */
const sameCategory = (filter: string, stored: string) => categoryKey(filter) === categoryKey(stored);

/** The model: what the API's filters say, read straight off the seeded rows (`attached`: invoices with files). */
function matches(c: Combination, e: SeededEntry, attached: ReadonlyMap<number, number>): boolean {
  if (c.startDate && e.date < c.startDate) return false;
  if (c.endDate && e.date > c.endDate) return false;
  if (c.invoiceNum !== undefined && e.invoiceNumber !== c.invoiceNum) return false;
  if (c.parties && !c.parties.some((p) => p.toLowerCase() === e.bill.name.toLowerCase())) return false;
  if (c.categories && !c.categories.some((k) => sameCategory(k, e.bill.category))) return false;
  if (c.min !== undefined && e.amountCents < c.min) return false;
  if (c.max !== undefined && e.amountCents > c.max) return false;
  if (c.flow === 'income' && !(e.flow === 'INCOMING' && !e.bill.internal)) return false;
  if (c.flow === 'expense' && !(e.flow === 'OUTGOING' && !e.bill.internal)) return false;
  if (c.flow === 'internal' && !e.bill.internal) return false;
  if (c.paid === 'true' && e.paidCents < e.amountCents) return false;
  if (c.paid === 'false' && e.paidCents >= e.amountCents) return false;
  if (c.paid === 'overpaid' && e.paidCents <= e.amountCents) return false;
  if (c.paid === 'partial' && !(e.paidCents > 0 && e.paidCents < e.amountCents)) return false;
  if (c.archives === 'true' && !e.bill.archived) return false;
  if (c.archives === 'false' && e.bill.archived) return false;
  if (c.hasAttachment === 'true' && !attached.has(e.id)) return false;
  if (c.hasAttachment === 'false' && attached.has(e.id)) return false;
  if (c.due) {
    const today = c.today ?? SERVER_TODAY;
    if (e.dueDate === null || e.paidCents >= e.amountCents) return false;
    if (c.due === 'overdue' && e.dueDate >= today) return false;
    if (c.due === 'upcoming' && (e.dueDate < today || e.dueDate > addDays(today, c.dueWithin ?? 30))) return false;
  }
  return true;
}

const ordered = (c: Combination, entries: SeededEntry[]) => sortedNumbers(entries, c.sortField, c.sortOrder);

/** The stats of the model: internal entries only when the flow filter asks; income is INCOMING of non-internal. */
function modelStats(c: Combination, entries: SeededEntry[]): Stats {
  return referenceStats(
    entries
      .filter((e) => (c.flow === undefined ? !e.bill.internal : true))
      .map((e) => ({
        income: e.flow === 'INCOMING' && !e.bill.internal,
        amountCents: e.amountCents,
        paidCents: e.paidCents,
        balanceCents: e.balanceCents,
        entity: e.bill.name,
        category: e.bill.category,
        payments: e.payments
          .filter((p) => p.recycledAt === null)
          .map((p) => ({ amountCents: p.amountCents, method: `${p.type}|${p.medium}` })),
      })),
  );
}

/** Every statement sent through the returned database, as Kysely's operation tree (raw SQL keeps its text in it). */
function recording(db: Db) {
  const seen: string[] = [];
  const recorded = db.withPlugin({
    transformQuery: (args) => {
      seen.push(JSON.stringify(args.node));
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { seen, recorded };
}

const PAYMENT_TYPES = [
  ['bank', 'ach'],
  ['credit', 'web'],
  ['check', 'mail'],
  ['cash', 'person'],
] as const;

describe.each(dialects)(`read model equals the in-memory model on %s (seed ${SEED})`, (dialect) => {
  let t: TestApp;
  /** Thresholds lowered: deep date pages seek, the largest payment of a side is walked from the top. */
  let lowered: FastifyInstance;
  let alice: Session;
  let live: SeededEntry[];
  let bills: SeededBill[];
  /** Per invoice: its files and those of its live payments (invoices with none left out). */
  const attached = new Map<number, number>();

  beforeAll(async () => {
    t = await createTestApp(
      dialect,
      {},
      { readModel: { seekFromOffset: 5, walkFromPayments: 3, ledgerIndex: SQL_ONLY } },
    );
    // The same database behind a server whose large-ledger paths are never taken.
    lowered = t.app;
    alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const aliceId = await userIdOf(t.app.db, alice.username);
    const bobId = await userIdOf(t.app.db, bob.username);
    const r = random(SEED);
    // Built-in categories and three of alice's own (one retired: it stays on its entities and in every answer).
    await seedCategories(t.app.db, aliceId, [
      { name: 'Salary', flow: 'income' },
      { name: 'side Gigs', flow: 'income' },
      { name: 'Pet care', retired: true },
    ]);
    // Bob's own category of the same name names nothing of alice's.
    await seedCategories(t.app.db, bobId, [{ name: 'Salary', flow: 'income' }]);
    const categories = [
      'Utilities',
      'Dining',
      'Salary',
      'Auto Loan',
      'side Gigs',
      'Home Services',
      'Financial',
      'Pet care',
      'Uncategorized',
    ];
    bills = await seedBills(
      t.app.db,
      aliceId,
      Array.from({ length: 14 }, (_, i) => ({
        name: `${['Acme', 'bistro', 'Zed', 'Client', 'Power', 'Corner'][i % 6]} ${i}`,
        category: categories[i % categories.length],
        internal: i % 7 === 3,
        archived: i % 5 === 2,
      })),
    );
    const [gone] = await seedBills(t.app.db, aliceId, [{ name: 'Gone 1', recycledAt: Date.UTC(2026, 10, 20) }]);
    const amounts = () => r.pick([0, 1, 999, 2500, 10_000, 12_345, 50_000, 99_999, r.int(60_000)]);
    const specs = Array.from({ length: 260 }, (_, i) => {
      const amountCents = amounts();
      const method = () => r.pick(PAYMENT_TYPES);
      const pay = (cents: number, recycled = false) => {
        const [type, medium] = method();
        return { amountCents: cents, type, medium, recycledAt: recycled ? Date.UTC(2026, 10, 1) : null };
      };
      const payments = [
        [],
        [pay(Math.floor(amountCents / 2))],
        [pay(amountCents)],
        [pay(amountCents), pay(1 + r.int(900))],
        [pay(0)],
        [pay(amountCents, true), pay(1)],
        [pay(r.int(amountCents + 1)), pay(r.int(amountCents + 1))],
      ][r.int(7)];
      const date = addDays(FIRST_DAY, r.int(3 * 365));
      return {
        bill: r.pick(bills),
        date,
        flow: r.chance(0.4) ? ('INCOMING' as const) : ('OUTGOING' as const),
        amountCents,
        services: r.pick(['rent', 'alpha', 'zeta fee', '', 'mid 2', `svc ${i % 9}`]),
        dueDate: r.chance(0.3) ? null : addDays(date, r.pick([0, 1, 14, 30, r.int(90)])),
        recycledAt: r.chance(0.03) ? Date.UTC(2026, 10, 21) : null,
        payments,
      };
    });
    const seeded = await seedEntries(t.app.db, aliceId, specs);
    if (gone) await seedEntries(t.app.db, aliceId, [{ bill: gone, amountCents: 500, date: '2024-05-05' }]);
    live = seeded.filter((e) => e.recycledAt === null);
    // Files on about a third of the invoices, on payments (a recycled payment's file counts for nothing), some on both.
    const files: ({ entryId: number } | { paymentId: number })[] = [];
    for (const e of seeded) {
      const count = (n: number) => attached.set(e.id, (attached.get(e.id) ?? 0) + n);
      if (r.chance(0.2)) {
        const n = 1 + r.int(2);
        for (let k = 0; k < n; k++) files.push({ entryId: e.id });
        count(n);
      }
      for (const p of e.payments) {
        if (!r.chance(0.3)) continue;
        files.push({ paymentId: p.id });
        if (p.recycledAt === null && e.recycledAt === null) count(1);
      }
    }
    await seedAttachments(t.app.db, aliceId, files);
    const [other] = await seedBills(t.app.db, bobId, [{ name: bills[0]?.name ?? 'x', category: 'Salary' }]);
    if (other) await seedEntries(t.app.db, bobId, [{ bill: other, amountCents: 2500, date: '2024-01-01' }]);
  });
  afterAll(() => t.close());

  const get = async <T>(app: FastifyInstance, path: string): Promise<T> => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1${path}`,
      headers: { ...alice.headers, 'cache-control': 'no-cache' },
    });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return (String(res.headers['content-type']).startsWith('text/csv') ? res.body : res.json()) as T;
  };

  it('every total, page, stats answer and export, with the large-ledger paths taken and not taken', async () => {
    const ceiling = await buildApp(testConfig(t.database.config, { now: t.clock.now }), {
      readModel: {
        seekFromOffset: Number.MAX_SAFE_INTEGER,
        walkFromPayments: Number.MAX_SAFE_INTEGER,
        ledgerIndex: SQL_ONLY,
      },
    });
    // The ledger index in memory, caught up with every write (ledger-index.ts).
    const indexed = await buildApp(testConfig(t.database.config, { now: t.clock.now }));
    try {
      const r = random(SEED + 1);
      for (let i = 0; i < CASES; i++) {
        const c = drawCombination(r, {
          names: bills.map((b) => b.name),
          categories: bills.map((b) => b.category),
          invoiceNumbers: live.map((e) => e.invoiceNumber),
          firstDay: FIRST_DAY,
          days: 3 * 365,
          attachments: true,
        });
        const filters = filterQuery(c);
        const expected = ordered(
          c,
          live.filter((e) => matches(c, e, attached)),
        );
        const pageSize = r.pick([1, 3, 7, 25, 100]);
        const pages = Math.ceil(expected.length / pageSize);
        const pageNums = [0, r.int(pages + 1), Math.max(pages - 1, 0)];
        const label = `seed ${SEED} case ${i}: ${filters}&sortField=${c.sortField}&sortOrder=${c.sortOrder}`;
        for (const app of [lowered, ceiling, indexed]) {
          for (const pageNum of pageNums) {
            const body = await get<EntryList>(
              app,
              `/entries?${filters}&sortField=${c.sortField}&sortOrder=${c.sortOrder}&pageSize=${pageSize}&pageNum=${pageNum}`,
            );
            expect(body.total, label).toBe(expected.length);
            expect(
              body.entries.map((e) => e.invoiceId),
              `${label} page ${pageNum}`,
            ).toEqual(expected.slice(pageNum * pageSize, (pageNum + 1) * pageSize));
            expect(
              body.entries.map((e) => e.attachmentCount),
              `${label} page ${pageNum} files`,
            ).toEqual(body.entries.map((e) => attached.get(e.entryId) ?? 0));
          }
          expect(await get<Stats>(app, `/entries/stats?${filters}`), label).toEqual(
            modelStats(
              c,
              live.filter((e) => matches(c, e, attached)),
            ),
          );
        }
        if (i % 4 === 0) {
          for (const app of [lowered, indexed]) {
            const csv = await get<string>(
              app,
              `/entries/export?${filters}&sortField=${c.sortField}&sortOrder=${c.sortOrder}`,
            );
            const numbers = csv
              .trim()
              .split('\r\n')
              .slice(1)
              .map((line) => Number(line.split(',')[0]));
            expect(numbers, label).toEqual(expected);
          }
        }
      }
      const stats = await indexed.inject({
        method: 'GET',
        url: '/api/v1/entries/stats',
        headers: { ...alice.headers, 'cache-control': 'no-cache' },
      });
      expect(stats.headers['server-timing']).toBe('ledger;desc=index');
    } finally {
      await ceiling.close();
      await indexed.close();
    }
  }, 120_000); // 40 combinations on three servers: well over the default on a busy machine

  it('the thresholds pick the paths: deep date pages seek and the largest payment of a side is walked only when lowered', async () => {
    const { seen, recorded } = recording(t.app.db);
    const scope = toScope(await userIdOf(t.app.db, alice.username), {});
    const walked = () => seen.some((s) => s.includes('"payments"') && /"orderBy".*"amount_cents"/.test(s));
    const sought = () => seen.some((s) => s.includes('entry_day_counts'));
    const run = async (options: Partial<ReadModelOptions>) => {
      seen.length = 0;
      const repo = new ReadModelRepository(recorded, options);
      await repo.page(scope, { field: 'date', order: 'desc' }, 30, 10);
      const seek = sought();
      await repo.stats(scope);
      return { seek, walk: walked() };
    };
    expect(await run({ seekFromOffset: 5, walkFromPayments: 3, ledgerIndex: SQL_ONLY })).toEqual({
      seek: true,
      walk: true,
    });
    expect(await run({ ...DEFAULT_READ_MODEL_OPTIONS, ledgerIndex: SQL_ONLY })).toEqual({ seek: false, walk: false });
  });

  it('stats and totals of one wide range are the rollups minus the rows outside it; a narrow range is scanned', async () => {
    const { seen, recorded } = recording(t.app.db);
    const repo = new ReadModelRepository(recorded, { ledgerIndex: SQL_ONLY });
    const userId = await userIdOf(t.app.db, alice.username);
    const readsRollups = async (filters: EntryFilters) => {
      seen.length = 0;
      await repo.stats(toScope(userId, filters));
      const stats = seen.some((s) => s.includes('entry_bill_totals'));
      seen.length = 0;
      await repo.count(toScope(userId, filters));
      return { stats, count: seen.some((s) => s.includes('entry_state_counts') || s.includes('entry_bill_totals')) };
    };
    expect(await readsRollups({ startDate: '2023-01-20' })).toMatchObject({ stats: true });
    expect(await readsRollups({ min: 100 })).toEqual({ stats: true, count: true });
    expect(await readsRollups({ startDate: '2025-12-01', endDate: '2025-12-31' })).toMatchObject({ stats: false });
    expect(await readsRollups({ min: 40_000, max: 45_000 })).toMatchObject({ stats: false });
  });
});

describe('the rollups’ sums, defined once', () => {
  it('their SQL and their arithmetic agree on every kind of entry', async () => {
    const t = await createTestApp('sqlite');
    try {
      for (const [amount, paid] of [
        [0, 0],
        [1000, 0],
        [1000, 1],
        [1000, 999],
        [1000, 1000],
        [1000, 1001],
        [99_999_999_999, 99_999_999_999 * 2],
      ] as const) {
        const balance = Math.max(amount - paid, 0);
        const row = await sql<Record<string, number>>`select ${sql.join(
          ENTRY_SUM_NAMES.map((name) => sql`${sql.raw(ENTRY_SUMS[name].sql)} as ${sql.ref(name)}`),
        )} from (select ${amount} as amount_cents, ${paid} as paid_cents, ${balance} as balance_cents) e`.execute(
          t.app.db,
        );
        expect(row.rows[0]).toEqual(
          Object.fromEntries(ENTRY_SUM_NAMES.map((name) => [name, ENTRY_SUMS[name].of(amount, paid, balance)])),
        );
      }
    } finally {
      await t.close();
    }
  });
});
