import type { Forecast } from '@billfold/contract/forecast';
import { forecastEnd } from '@billfold/contract/forecast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, request, updateBill } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { createSchedule } from './helpers/schedules.ts';

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
