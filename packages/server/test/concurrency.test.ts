import type { Entry } from '@billfold/contract/entries';
import type { Payment, PaymentList } from '@billfold/contract/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { createBill, createEntry } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

/**
 * Many clients paying and deleting payments on invoices of one entity at once. Their transactions touch
 * shared rollup rows in different orders, so PostgreSQL breaks deadlocks by aborting one: the server must
 * run that unit of work again rather than answer 500, and every total must stay exact.
 */
describe.each(dialects)('concurrent writes on one entity (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('never fails with 5xx and keeps every total exact', async () => {
    const session = await signUp(t.app);
    const api = { app: t.app, session };
    const bill = await createBill(api);
    const entries = await Promise.all(
      Array.from({ length: 6 }, () => createEntry(api, { billId: bill.id, amount: 100, flow: 'expense' })),
    );
    const statuses: number[] = [];
    const request = async (method: 'POST' | 'PUT', payload: object) => {
      const res = await t.app.inject({ method, url: '/api/v1/payments', headers: session.headers, payload });
      statuses.push(res.statusCode);
      return res;
    };
    const work = entries.flatMap((entry) =>
      Array.from({ length: 15 }, async (_, round) => {
        const res = await request('POST', {
          entryId: entry.entryId,
          date: '2026-01-01',
          amount: 40,
          type: round % 2 ? 'cash' : 'check',
          medium: round % 2 ? 'person' : 'mail',
        });
        if (res.statusCode === 201 && round % 3 === 0) {
          await request('PUT', { paymentId: res.json<Payment>().paymentId, recycle: true });
        }
      }),
    );
    await Promise.all(work);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);

    for (const entry of entries) {
      const payments = (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/payments?entryId=${entry.entryId}`,
          headers: session.headers,
        })
      ).json<PaymentList>().paymentDTOList;
      const fresh = (
        await t.app.inject({ method: 'GET', url: `/api/v1/entries/${entry.entryId}`, headers: session.headers })
      ).json<Entry>();
      const paidCents = payments.reduce((sum, p) => sum + Math.round(p.amount * 100), 0);
      expect(payments).toHaveLength(10);
      expect(fresh.balance.totalOverpaid).toBe(Math.max(paidCents - 10_000, 0) / 100);
      expect(fresh.overpaid).toBe(paidCents > 10_000);
    }
    const stats = (await t.app.inject({ method: 'GET', url: `/api/v1/entries/stats`, headers: session.headers })).json<{
      totalSentPaymentAmount: number;
      totalExpenseOverpaid: number;
    }>();
    expect(stats.totalSentPaymentAmount).toBe(600);
    expect(stats.totalExpenseOverpaid).toBe(6 * 300);
  });
});
