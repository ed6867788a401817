import { type PriceHistory, percentChange } from '@billfold/contract/price-history';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, editEntry, request, updateBill } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

/**
 * `GET /bills/{id}/price-history` (docs/decisions/0211-price-history.md): an electricity bill and a leap-day
 * subscription worked out by hand, on both databases.
 */
describe.each(dialects)('GET /api/v1/bills/{id}/price-history on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let powerId: number;
  let yearlyId: number;
  const ids = new Map<string, { entryId: number; invoiceId: number }>();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
    powerId = (await createBill(api, { name: 'Power' })).id;
    yearlyId = (await createBill(api, { name: 'Yearly' })).id;
    const entry = async (billId: number, date: string, amount: number) => {
      const e = await createEntry(api, { billId, date, amount, flow: 'expense', services: date });
      ids.set(`${billId} ${date}`, { entryId: e.entryId, invoiceId: e.invoiceId });
      return e;
    };
    // Entered out of order: the history sorts by date.
    await entry(powerId, '2026-01-15', 96);
    await entry(powerId, '2025-01-15', 80);
    await entry(powerId, '2025-02-14', 90);
    const recycled = await entry(powerId, '2025-03-15', 500);
    await editEntry(api, { entryId: recycled.entryId, recycle: true });
    await entry(powerId, '2025-12-20', 100);
    await entry(powerId, '2026-02-20', 99);
    await entry(yearlyId, '2024-02-29', 120);
    await entry(yearlyId, '2025-02-28', 126);
  });
  afterAll(() => t.close());

  const history = async (id: number) => {
    const res = await request(api, 'GET', `/bills/${id}/price-history`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PriceHistory>();
  };
  const ref = (billId: number, date: string, amount: number, change: number, percent: number | null) => ({
    ...ids.get(`${billId} ${date}`),
    date,
    amount,
    change,
    percent,
  });

  it('lists live invoices oldest first with the change vs the previous one and vs a year before', async () => {
    const h = await history(powerId);
    expect(h.entityId).toBe(powerId);
    expect(h.count).toBe(5); // the recycled 500.00 is not there
    expect(h.points.map((p) => [p.date, p.amount, p.flow])).toEqual([
      ['2025-01-15', 80, 'OUTGOING'],
      ['2025-02-14', 90, 'OUTGOING'],
      ['2025-12-20', 100, 'OUTGOING'],
      ['2026-01-15', 96, 'OUTGOING'],
      ['2026-02-20', 99, 'OUTGOING'],
    ]);
    expect(h.points[0]?.entryId).toBe(ids.get(`${powerId} 2025-01-15`)?.entryId);
    expect(h.points[0]?.invoiceId).toBe(ids.get(`${powerId} 2025-01-15`)?.invoiceId);
    expect(h.points.map((p) => p.vsPrevious)).toEqual([
      null,
      ref(powerId, '2025-01-15', 80, 10, 12.5), // 10 / 80
      ref(powerId, '2025-02-14', 90, 10, 11.1), // 10 / 90 = 11.11…
      ref(powerId, '2025-12-20', 100, -4, -4), // -4 / 100
      ref(powerId, '2026-01-15', 96, 3, 3.1), // 3 / 96 = 3.125
    ]);
    expect(h.points.map((p) => p.vsYearBefore)).toEqual([
      null,
      null, // 2024-02-14 ± 31 days: nothing
      ref(powerId, '2025-01-15', 80, 20, 25), // a year back is 2024-12-20; 2025-01-15 is 26 days off, within 31
      ref(powerId, '2025-01-15', 80, 16, 20), // the same day a year back
      // 2025-02-20: 2025-02-14 is 6 days off; 2025-01-15 (36 days) is beyond the 31 days, 2025-03-15 is recycled.
      ref(powerId, '2025-02-14', 90, 9, 10),
    ]);
  });

  it('compares 28 February with the 29th of the leap year before', async () => {
    const h = await history(yearlyId);
    expect(h.points.map((p) => [p.date, p.vsYearBefore])).toEqual([
      ['2024-02-29', null],
      ['2025-02-28', ref(yearlyId, '2024-02-29', 120, 6, 5)],
    ]);
  });

  it('is empty for an entity without invoices and 404 for a recycled, missing or other ledger’s entity', async () => {
    const empty = await createBill(api, { name: 'Empty' });
    expect(await history(empty.id)).toEqual({ entityId: empty.id, count: 0, points: [] });
    await updateBill(api, { id: empty.id, recycle: true });
    const gone = await request(api, 'GET', `/bills/${empty.id}/price-history`);
    expect([gone.statusCode, gone.json().code]).toEqual([404, 'NOT_FOUND']);
    expect((await request(api, 'GET', '/bills/999999/price-history')).statusCode).toBe(404);
    const other: Api = { app: t.app, session: await signUp(t.app) };
    const res = await request(other, 'GET', `/bills/${powerId}/price-history`);
    expect(res.statusCode).toBe(404);
    expect((await request(api, 'GET', '/bills/abc/price-history')).statusCode).toBe(400);
  });
});

describe('percentChange', () => {
  it('is to one decimal with halves away from zero, and null from 0', () => {
    expect(percentChange(2000, 2001)).toBe(0.1); // 0.05 %
    expect(percentChange(2000, 1999)).toBe(-0.1);
    expect(percentChange(100, 0)).toBe(-100);
    expect(percentChange(0, 100)).toBeNull();
  });
});
