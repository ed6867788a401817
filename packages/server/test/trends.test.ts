import { addDays } from '@billfold/contract/dates';
import type { Entry, EntryList } from '@billfold/contract/entries';
import { toCents } from '@billfold/contract/money';
import { periodOf, TREND_INTERVALS, type Trends } from '@billfold/contract/trends';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LEDGER_INDEX_OPTIONS } from '../src/modules/read-model/ledger-indexes.ts';
import { createTestApp, dialects, indexedServer, type TestApp } from './helpers/app.ts';
import { drawCombination, filterQuery } from './helpers/combinations.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { random } from './helpers/random.ts';
import { type SeededBill, type SeededEntry, seedBills, seedCategories, seedEntries, userIdOf } from './helpers/seed.ts';

/**
 * `GET /entries/trends` (docs/decisions/0210-trends.md): for any filter combination and interval, each period's and
 * each category's income and expenses equal the sums of the plain list over the same filter, on a server that
 * answers by SQL and on one that answers from the ledger index in memory, on both databases.
 */

const SEED = 20261205;
const FIRST_DAY = '2023-01-01';
const SQL_ONLY = { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 };

type Sums = { income: number; expenses: number };
const cents = (amount: number) => {
  const c = toCents(Math.abs(amount));
  if (c === null) throw new Error(`not a money amount: ${amount}`);
  return amount < 0 ? -c : c;
};

describe.each(dialects)('GET /api/v1/entries/trends on %s', (dialect) => {
  let t: TestApp;
  let indexed: FastifyInstance;
  let alice: Session;
  let bills: SeededBill[];
  let live: SeededEntry[];

  const get = async <T>(app: FastifyInstance, path: string, session = alice) => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1${path}`,
      headers: { ...session.headers, 'cache-control': 'no-cache' },
    });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return { body: res.json<T>(), answeredBy: res.headers['server-timing'] };
  };

  /** Every row of the plain list over `filters`, page by page. */
  async function listAll(filters: string): Promise<Entry[]> {
    const out: Entry[] = [];
    for (let page = 0; ; page++) {
      const { body } = await get<EntryList>(t.app, `/entries?${filters}&pageSize=100&pageNum=${page}`);
      out.push(...body.entries);
      if (out.length >= body.total || body.entries.length === 0) return out;
    }
  }

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { readModel: { ledgerIndex: SQL_ONLY } });
    alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const aliceId = await userIdOf(t.app.db, alice.username);
    await seedCategories(t.app.db, aliceId, [{ name: 'Salary', flow: 'income' }]);
    const categories = ['Utilities', 'Dining', 'Salary', 'Auto Loan', 'Financial', 'Uncategorized'];
    bills = await seedBills(
      t.app.db,
      aliceId,
      Array.from({ length: 9 }, (_, i) => ({
        name: `${['Acme', 'bistro', 'Zed', 'Client'][i % 4]} ${i}`,
        category: categories[i % categories.length],
        internal: i % 7 === 3,
        archived: i % 5 === 2,
      })),
    );
    const r = random(SEED);
    const seeded = await seedEntries(
      t.app.db,
      aliceId,
      Array.from({ length: 160 }, () => {
        const amountCents = r.pick([0, 1, 999, 10_000, 12_345, 99_999, r.int(60_000)]);
        const date = addDays(FIRST_DAY, r.int(3 * 365));
        return {
          bill: r.pick(bills),
          date,
          flow: r.chance(0.4) ? ('INCOMING' as const) : ('OUTGOING' as const),
          amountCents,
          dueDate: r.chance(0.3) ? null : addDays(date, r.int(60)),
          recycledAt: r.chance(0.05) ? Date.UTC(2026, 10, 21) : null,
          payments: r.chance(0.5) ? [{ amountCents: r.int(amountCents + 1), type: 'bank', medium: 'ach' }] : [],
        };
      }),
    );
    live = seeded.filter((e) => e.recycledAt === null);
    // Another user's rows are in no answer of alice's.
    const bobId = await userIdOf(t.app.db, bob.username);
    const [other] = await seedBills(t.app.db, bobId, [{ name: 'Acme 0', category: 'Utilities' }]);
    if (other) await seedEntries(t.app.db, bobId, [{ bill: other, amountCents: 777, date: '2024-02-02' }]);
    // The same database behind a server answering from the ledger index, once the index has loaded.
    indexed = await indexedServer(t, alice.headers, '/entries/trends');
  });
  afterAll(async () => {
    await indexed?.close();
    await t.close();
  });

  it('equals the sums of the plain list over the same filter, for any filters and interval (property)', async () => {
    const internalOf = new Map(bills.map((b) => [b.id, b.internal]));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(...TREND_INTERVALS),
        async (seed, interval) => {
          const c = drawCombination(random(seed), {
            names: bills.map((b) => b.name),
            categories: bills.map((b) => b.category ?? 'Uncategorized'),
            invoiceNumbers: live.map((e) => e.invoiceNumber),
            firstDay: FIRST_DAY,
            days: 3 * 365,
          });
          const filters = filterQuery(c);
          // The model: the list's rows, internal ones only when the flow filter asks, added up per period.
          const rows = (await listAll(filters)).filter((e) => c.flow !== undefined || !internalOf.get(e.billId));
          const periods = new Map<string, { total: Sums; categories: Map<string, Sums> }>();
          for (const e of rows) {
            const key = periodOf(e.date, interval);
            const p = periods.get(key) ?? { total: { income: 0, expenses: 0 }, categories: new Map<string, Sums>() };
            periods.set(key, p);
            const k = p.categories.get(e.category) ?? { income: 0, expenses: 0 };
            p.categories.set(e.category, k);
            const side = e.flow === 'INCOMING' && !internalOf.get(e.billId) ? 'income' : 'expenses';
            p.total[side] += cents(e.amount);
            k[side] += cents(e.amount);
          }
          for (const app of [t.app, indexed]) {
            const { body } = await get<Trends>(app, `/entries/trends?${filters}&interval=${interval}`);
            const label = `seed ${seed} ${interval}: ${filters}`;
            expect(body.interval, label).toBe(interval);
            expect(body.periods.length === 0, label).toBe(periods.size === 0);
            const seen = new Set<string>();
            body.periods.forEach((period, i) => {
              // One period after the other, each named for its first day.
              expect(period.period, label).toBe(periodOf(period.startDate, interval));
              expect(periodOf(period.endDate, interval), label).toBe(period.period);
              expect(periodOf(addDays(period.endDate, 1), interval), label).not.toBe(period.period);
              const previous = body.periods[i - 1];
              if (previous) expect(period.startDate, label).toBe(addDays(previous.endDate, 1));
              const want = periods.get(period.period);
              seen.add(period.period);
              const total = want?.total ?? { income: 0, expenses: 0 };
              expect([cents(period.income), cents(period.expenses), cents(period.net)], label).toEqual([
                total.income,
                total.expenses,
                total.income - total.expenses,
              ]);
              expect(
                period.categories.map((k) => [k.category, cents(k.income), cents(k.expenses), cents(k.net)]),
                label,
              ).toEqual(
                [...(want?.categories ?? [])]
                  .sort(([a], [b]) => (a < b ? -1 : 1))
                  .map(([name, s]) => [name, s.income, s.expenses, s.income - s.expenses]),
              );
            });
            // Every period of the list is there; the first and last hold an invoice.
            expect(
              [...periods.keys()].filter((k) => !seen.has(k)),
              label,
            ).toEqual([]);
            if (body.periods.length > 0) {
              expect(periods.has(body.periods[0]?.period ?? ''), label).toBe(true);
              expect(periods.has(body.periods.at(-1)?.period ?? ''), label).toBe(true);
            }
          }
        },
      ),
      { numRuns: 30, seed: SEED },
    );
  }, 180_000);

  it('works a small ledger out by hand: quarters, years, internal entries and exact cents', async () => {
    const carol = await signUp(t.app);
    const carolId = await userIdOf(t.app.db, carol.username);
    const [client, power, savings] = await seedBills(t.app.db, carolId, [
      { name: 'Client', category: 'Financial' },
      { name: 'Power Co', category: 'Utilities' },
      { name: 'Savings', category: 'Financial', internal: true },
    ]);
    if (!client || !power || !savings) throw new Error('no bills');
    await seedEntries(t.app.db, carolId, [
      { bill: client, date: '2025-12-31', flow: 'INCOMING', amountCents: 10 },
      { bill: power, date: '2026-01-01', flow: 'OUTGOING', amountCents: 20 },
      { bill: power, date: '2026-03-31', flow: 'OUTGOING', amountCents: 1 },
      { bill: client, date: '2026-03-31', flow: 'INCOMING', amountCents: 30 },
      { bill: savings, date: '2026-02-15', amountCents: 5_000 },
      { bill: power, date: '2026-07-04', flow: 'OUTGOING', amountCents: 7 },
    ]);
    const trends = async (query: string) => (await get<Trends>(t.app, `/entries/trends?${query}`, carol)).body;
    const byQuarter = await trends('interval=quarter');
    expect(byQuarter.periods.map((p) => [p.period, p.startDate, p.endDate, p.income, p.expenses, p.net])).toEqual([
      ['2025-Q4', '2025-10-01', '2025-12-31', 0.1, 0, 0.1],
      ['2026-Q1', '2026-01-01', '2026-03-31', 0.3, 0.21, 0.09],
      ['2026-Q2', '2026-04-01', '2026-06-30', 0, 0, 0],
      ['2026-Q3', '2026-07-01', '2026-09-30', 0, 0.07, -0.07],
    ]);
    expect(byQuarter.periods[1]?.categories).toEqual([
      { category: 'Financial', income: 0.3, expenses: 0, net: 0.3 },
      { category: 'Utilities', income: 0, expenses: 0.21, net: -0.21 },
    ]);
    expect(byQuarter.periods[2]?.categories).toEqual([]);
    // Without an interval: months; with flow=internal, the transfers only, as expenses.
    const months = await trends('');
    expect(months.interval).toBe('month');
    expect(months.periods.map((p) => p.period)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
    ]);
    expect((await trends('flow=internal&interval=year')).periods).toEqual([
      {
        period: '2026',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        income: 0,
        expenses: 50,
        net: -50,
        categories: [{ category: 'Financial', income: 0, expenses: 50, net: -50 }],
      },
    ]);
    expect((await trends('interval=year&startDate=2030-01-01')).periods).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/v1/entries/trends?interval=week',
      headers: carol.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });
});
