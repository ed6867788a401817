import { addDays } from '@billfold/contract/dates';
import type { Forecast } from '@billfold/contract/forecast';
import { forecastEnd } from '@billfold/contract/forecast';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DueRepository } from '../src/modules/due/due.repository.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS } from '../src/modules/read-model/ledger-indexes.ts';
import { createTestApp, dialects, indexedServer, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, request, updateBill } from './helpers/domain.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { random } from './helpers/random.ts';
import { createSchedule } from './helpers/schedules.ts';
import { personalLedgerOf, seedBills, seedEntries, userIdOf } from './helpers/seed.ts';

const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);

/**
 * `GET /forecast` and the starting balance (docs/decisions/1014-forecast.md): a household on 2026-11-22 worked out
 * by hand, on both databases.
 */
describe.each(dialects)('GET /api/v1/forecast on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let rentScheduleId: number;
  let overdueId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(noon('2026-11-22'));
    api = { app: t.app, session: await signUp(t.app) };
    const landlord = await createBill(api, { name: 'Landlord' });
    const employer = await createBill(api, { name: 'Employer', category: 'Financial' });
    const stored = await createBill(api, { name: 'Old Storage' });
    const entry = (billId: number, dueDate: string | null, amount: number, flow: 'expense' | 'income' = 'expense') =>
      createEntry(api, { billId, date: '2026-11-01', dueDate, amount, flow, services: `due ${dueDate}` });
    // Overdue: counts today.
    overdueId = (await entry(landlord.id, '2026-11-20', 40)).entryId;
    // Partly paid: what is left, 70.00, on its due date.
    const partly = await entry(landlord.id, '2026-12-10', 100);
    await createPayment(api, { entryId: partly.entryId, amount: 30, date: '2026-11-05' });
    await entry(employer.id, '2026-12-01', 500, 'income');
    // Paid in full, without a due date, beyond the horizon, or of an archived entity: not in it.
    const paid = await entry(landlord.id, '2026-12-05', 10);
    await createPayment(api, { entryId: paid.entryId, amount: 10, date: '2026-11-05' });
    await entry(landlord.id, null, 999);
    await entry(landlord.id, '2027-03-01', 888);
    await entry(stored.id, '2026-12-02', 777);
    await updateBill(api, { id: stored.id, status: 0 });
    // Rent on the 1st, due 5 days later: 2026-12-06 and 2027-01-06 within two months.
    const rent = await createSchedule(api, landlord.id, { firstDate: '2026-12-01', amount: 1250.1, dueDays: 5 });
    rentScheduleId = rent.id;
  });
  afterAll(() => t.close());

  const forecast = async (query: string) => {
    const res = await request(api, 'GET', `/forecast?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Forecast>();
  };
  const busy = (f: Forecast) =>
    f.days.filter((d) => d.income !== 0 || d.expenses !== 0).map((d) => [d.date, d.income, d.expenses, d.balance]);

  it('adds open invoices by due date and scheduled occurrences to each day, from the starting balance', async () => {
    const put = await request(api, 'PUT', '/forecast/balance', { balance: -120.5 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ balance: -120.5 });
    expect((await request(api, 'GET', '/forecast/balance')).json()).toEqual({ balance: -120.5 });

    const f = await forecast('months=2');
    expect([f.today, f.endDate, f.months, f.startingBalance]).toEqual(['2026-11-22', '2027-01-21', 2, -120.5]);
    expect(f.days).toHaveLength(61);
    expect(f.days.map((d) => d.date).slice(0, 2)).toEqual(['2026-11-22', '2026-11-23']);
    expect(busy(f)).toEqual([
      ['2026-11-22', 0, 40, -160.5],
      ['2026-12-01', 500, 0, 339.5],
      ['2026-12-06', 0, 1250.1, -910.6],
      ['2026-12-10', 0, 70, -980.6],
      ['2027-01-06', 0, 1250.1, -2230.7],
    ]);
    expect(f.days.at(-1)?.balance).toBe(-2230.7);
    expect(f.lowest).toEqual({ date: '2027-01-06', balance: -2230.7 });
    expect([f.income, f.expenses]).toEqual([500, 2610.2]);
    // What is behind each day.
    const today = f.days[0];
    expect(today?.items.map((i) => [i.kind, i.entryId, i.amount, i.dueDate])).toEqual([
      ['invoice', overdueId, 40, '2026-11-20'],
    ]);
    expect(today?.more).toBe(0);
    const rentDay = f.days.find((d) => d.date === '2026-12-06');
    expect(rentDay?.items).toEqual([
      expect.objectContaining({ kind: 'occurrence', scheduleId: rentScheduleId, name: 'Landlord', amount: 1250.1 }),
    ]);
    expect(f.days.find((d) => d.date === '2026-12-10')?.items.map((i) => i.amount)).toEqual([70]);
  });

  it('lists a crowded day’s invoices, then its occurrences by entity name and schedule, and counts the rest', async () => {
    const crowd: Api = { app: t.app, session: await signUp(t.app) };
    const get = async (query: string) => (await request(crowd, 'GET', `/forecast?${query}`)).json<Forecast>();
    // Made out of name order, in mixed case: the names sort as the database's collation does, not by code unit.
    const names = ['Mike', 'alpha', 'Zulu', 'Bravo', 'charlie', 'Delta', 'echo', 'Foxtrot', 'golf', 'Hotel', 'india'];
    const amountOf = new Map<number, string>();
    let cents = 0;
    for (const [i, name] of names.entries()) {
      const bill = await createBill(crowd, { name });
      const schedules = name === 'alpha' ? 2 : 1; // two of one entity: they follow their schedule ids
      for (let k = 0; k < schedules; k++) {
        const amount = 10 + i + k / 10;
        const made = await createSchedule(crowd, bill.id, { firstDate: '2026-12-09', amount, dueDays: 0 });
        amountOf.set(made.id, `${name} ${amount}`);
        cents += Math.round(amount * 100);
      }
    }
    const late = await createBill(crowd, { name: 'aardvark' });
    const lateSchedule = await createSchedule(crowd, late.id, { firstDate: '2026-12-15', amount: 5, dueDays: 0 });
    amountOf.set(lateSchedule.id, 'aardvark 5');
    const invoice = await createEntry(crowd, {
      billId: late.id,
      date: '2026-11-01',
      dueDate: '2026-12-09',
      amount: 3,
      flow: 'expense',
    });
    const listed = (day: Forecast['days'][number] | undefined) =>
      day?.items.map((i) => (i.kind === 'invoice' ? `invoice ${i.entryId}` : amountOf.get(i.scheduleId ?? 0)));
    const inOrder = ['alpha 11', 'alpha 11.1', 'Bravo 13', 'charlie 14', 'Delta 15', 'echo 16', 'Foxtrot 17'];

    const ahead = await get('today=2026-11-22&months=1');
    const crowded = ahead.days.find((d) => d.date === '2026-12-09');
    expect(listed(crowded)).toEqual([`invoice ${invoice.entryId}`, ...inOrder, 'golf 18', 'Hotel 19']);
    expect([crowded?.more, crowded?.expenses]).toEqual([3, (cents + 300) / 100]);
    expect(listed(ahead.days.find((d) => d.date === '2026-12-15'))).toEqual(['aardvark 5']);

    // As of a later day, what fell due before it counts that day, soonest due first: the overdue invoice, the
    // occurrences due on the 9th, and only then aardvark's, due that very day, whatever its name.
    const later = await get('today=2026-12-15&months=1');
    const first = later.days[0];
    expect(listed(first)).toEqual([`invoice ${invoice.entryId}`, ...inOrder, 'golf 18', 'Hotel 19']);
    expect([first?.more, first?.expenses]).toEqual([4, (cents + 300 + 500) / 100]);
  });

  it('starts at 0 without a balance, takes the client’s day, and refuses what is out of range', async () => {
    expect((await request(api, 'PUT', '/forecast/balance', { balance: null })).json()).toEqual({ balance: null });
    const f = await forecast('months=1&today=2026-12-01');
    expect(f.startingBalance).toBeNull();
    expect([f.today, f.endDate]).toEqual(['2026-12-01', '2026-12-31']);
    // The invoice overdue since 2026-11-20 counts on the client's today, with the income due that day.
    expect(busy(f)).toEqual([
      ['2026-12-01', 500, 40, 460],
      ['2026-12-06', 0, 1250.1, -790.1],
      ['2026-12-10', 0, 70, -860.1],
    ]);
    // A forecast of nothing stays at the balance; its lowest point is today.
    const fresh: Api = { app: t.app, session: await signUp(t.app) };
    const empty = (await request(fresh, 'GET', '/forecast')).json<Forecast>();
    expect([empty.months, empty.days.length, empty.lowest]).toEqual([3, 92, { date: '2026-11-22', balance: 0 }]);

    for (const query of ['months=0', 'months=25', 'months=1.5', 'today=2026-13-01']) {
      const res = await request(api, 'GET', `/forecast?${query}`);
      expect({ query, status: res.statusCode, code: res.json().code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
    for (const balance of ['12', 1e12, 0.001]) {
      const res = await request(api, 'PUT', '/forecast/balance', { balance });
      expect(res.statusCode).toBe(400);
    }
    expect((await request(api, 'GET', '/forecast/balance')).json()).toEqual({ balance: null });
  });

  it('ends on the day before the same day N months later', () => {
    expect(forecastEnd('2026-01-31', 1)).toBe('2026-02-27');
    expect(forecastEnd('2026-11-22', 24)).toBe('2028-11-21');
    expect(forecastEnd('2026-12-15', 1)).toBe('2027-01-14');
  });
});

const SQL_ONLY = { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 };
const FORECAST_SEED = 20261128;

/**
 * The forecast's invoices from the ledger's index equal those read by SQL (docs/decisions/1014-forecast.md): a
 * random ledger with partly paid, overpaid, recycled, archived and internal invoices, crowded due days (more than
 * a day lists) and invoice numbers in another order than ids, asked as of random days for 1 to 24 months.
 */
describe.each(dialects)('the forecast from the ledger index and from SQL on %s', (dialect) => {
  let t: TestApp;
  let indexed: FastifyInstance;
  let alice: Session;
  let ledgerId: number;

  const get = async (app: FastifyInstance, path: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/v1${path}`, headers: alice.headers });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return { body: res.json<Forecast>(), answeredBy: res.headers['server-timing'] };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { readModel: { ledgerIndex: SQL_ONLY } });
    t.clock.set(noon('2026-11-22'));
    alice = await signUp(t.app);
    const aliceId = await userIdOf(t.app.db, alice.username);
    ledgerId = await personalLedgerOf(t.app.db, alice.username);
    const bills = await seedBills(
      t.app.db,
      aliceId,
      Array.from({ length: 6 }, (_, i) => ({
        name: `Payee ${i}`,
        category: i % 2 ? 'Utilities' : 'Financial',
        internal: i === 4,
        archived: i === 5,
      })),
    );
    const r = random(FORECAST_SEED);
    await seedEntries(
      t.app.db,
      aliceId,
      Array.from({ length: 240 }, (_, i) => {
        const amountCents = r.pick([0, 1, 999, 10_000, 12_345, r.int(90_000)]);
        const dueDate = i % 4 === 0 ? '2026-12-03' : addDays('2025-11-01', r.int(3 * 365));
        const paid = r.pick([0, 0, 0, r.int(amountCents + 1), amountCents, amountCents + 500]);
        return {
          bill: r.pick(bills),
          date: addDays(dueDate, -r.int(40)),
          flow: r.chance(0.35) ? ('INCOMING' as const) : ('OUTGOING' as const),
          amountCents,
          dueDate: i % 4 !== 0 && r.chance(0.1) ? null : dueDate,
          recycledAt: r.chance(0.05) ? noon('2026-11-20') : null,
          payments: paid > 0 ? [{ amountCents: paid, type: 'bank', medium: 'ach' }] : [],
        };
      }),
    );
    // Invoice numbers against the ids' order, so that a day's first ones by number are not its first by id.
    await t.app.db
      .updateTable('entries')
      .set((eb) => ({ invoice_number: eb(sql.lit(1_000_000), '-', eb.ref('invoice_number')) }))
      .where('ledger_id', '=', ledgerId)
      .execute();
    const api: Api = { app: t.app, session: alice };
    await createSchedule(api, bills[1]?.id ?? 0, { firstDate: '2026-12-09', amount: 61.5, dueDays: 3 });
    // The same database behind a server answering from the ledger index, once the index has loaded.
    indexed = await indexedServer(t, alice.headers, '/forecast');
  });
  afterAll(async () => {
    await indexed?.close();
    await t.close();
  });

  it('gives the same days, sums and listed invoices for any day and horizon (property)', async () => {
    const days = await new DueRepository(t.app.db).owedByDay({ id: ledgerId }, '2026-12-03', '2026-12-03', 10);
    // A crowded day lists 10 and counts the rest (the property below would hold for a ledger without one too).
    expect(days[0]?.count ?? 0).toBeGreaterThan(10);
    // The SQL read of open invoices by day: the indexed server must not run it (both servers share this process).
    const sqlReads = vi.spyOn(
      DueRepository.prototype as unknown as { owedPerDayQuery: () => unknown },
      'owedPerDayQuery',
    );
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: -400, max: 800 }),
          fc.integer({ min: 1, max: 24 }),
          async (offset, months) => {
            const path = `/forecast?today=${addDays('2025-11-01', offset)}&months=${months}`;
            sqlReads.mockClear();
            const byIndex = await get(indexed, path);
            expect(sqlReads, path).not.toHaveBeenCalled();
            const bySql = await get(t.app, path);
            expect(sqlReads, path).toHaveBeenCalledOnce();
            expect([bySql.answeredBy, byIndex.answeredBy], path).toEqual(['ledger;desc=sql', 'ledger;desc=index']);
            expect(byIndex.body, path).toEqual(bySql.body);
          },
        ),
        { numRuns: 25, seed: FORECAST_SEED },
      );
    } finally {
      sqlReads.mockRestore();
    }
  });
});
