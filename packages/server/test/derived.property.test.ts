import type { Entry } from '@billfold/contract/entries';
import type { Payment, PaymentList } from '@billfold/contract/payments';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

/**
 * Random sequences of invoice and payment changes, checked after every step against a model that is nothing
 * more than lists and sums: the stored status, overpaid and balance must equal the model's to the cent.
 */

type Op =
  | { kind: 'create'; cents: number }
  | { kind: 'editAmount'; entry: number; cents: number }
  | { kind: 'pay'; entry: number; cents: number }
  | { kind: 'editPayment'; payment: number; cents: number }
  | { kind: 'deletePayment'; payment: number }
  | { kind: 'restorePayment'; payment: number }
  | { kind: 'deleteEntry'; entry: number }
  | { kind: 'restoreEntry'; entry: number };

interface ModelPayment {
  id: number;
  cents: number;
  recycled: boolean;
  /** Deleted together with its invoice. */
  cascade: boolean;
}
interface ModelEntry {
  id: number;
  cents: number;
  recycled: boolean;
  payments: ModelPayment[];
}

const cents = fc.oneof(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom(1, 10, 99, 100, 5_000));
// Few invoices and payments, so that steps meet again on the same ones (delete, then pay, then restore...).
const index = fc.nat({ max: 3 });
const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const op: fc.Arbitrary<Op> = fc.oneof(
  weighted(1, fc.record({ kind: fc.constant('create' as const), cents })),
  weighted(2, fc.record({ kind: fc.constant('editAmount' as const), entry: index, cents })),
  weighted(4, fc.record({ kind: fc.constant('pay' as const), entry: index, cents })),
  weighted(2, fc.record({ kind: fc.constant('editPayment' as const), payment: index, cents })),
  weighted(3, fc.record({ kind: fc.constant('deletePayment' as const), payment: index })),
  weighted(2, fc.record({ kind: fc.constant('restorePayment' as const), payment: index })),
  weighted(2, fc.record({ kind: fc.constant('deleteEntry' as const), entry: index })),
  weighted(3, fc.record({ kind: fc.constant('restoreEntry' as const), entry: index })),
);

const money = (c: number) => c / 100;
const livePaid = (e: ModelEntry) => e.payments.filter((p) => !p.recycled).reduce((sum, p) => sum + p.cents, 0);

function expectedEntry(e: ModelEntry) {
  const paid = livePaid(e);
  return {
    amount: money(e.cents),
    status: paid >= e.cents,
    overpaid: paid > e.cents,
    balance: { totalBalance: money(Math.max(e.cents - paid, 0)), totalOverpaid: money(Math.max(paid - e.cents, 0)) },
    recycle: e.recycled,
  };
}

describe.each(dialects)('derived invoice fields (property) on %s', (dialect) => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(() => t.close());

  /** Runs one step against the API and the model; returns the status code the model expects and the API gave. */
  async function step(model: ModelEntry[], billId: number, o: Op): Promise<void> {
    // Deletes aim at live rows and restores at recycled ones when there are any, so sequences keep meeting the
    // interesting transitions (a payment deleted on its own, then its invoice deleted and restored, ...).
    const all = model.flatMap((e) => e.payments.map((p) => ({ entry: e, payment: p })));
    const pick = <T>(items: T[], i: number, prefer?: (item: T) => boolean): T | undefined => {
      const preferred = prefer ? items.filter(prefer) : [];
      const pool = preferred.length > 0 ? preferred : items;
      return pool[i % Math.max(pool.length, 1)];
    };
    const entry =
      'entry' in o
        ? pick(
            model,
            o.entry,
            o.kind === 'deleteEntry' ? (e) => !e.recycled : o.kind === 'restoreEntry' ? (e) => e.recycled : undefined,
          )
        : undefined;
    const target =
      'payment' in o
        ? pick(
            all,
            o.payment,
            o.kind === 'deletePayment'
              ? (x) => !x.payment.recycled
              : o.kind === 'restorePayment'
                ? (x) => x.payment.recycled
                : undefined,
          )
        : undefined;
    const call = async (method: 'POST' | 'PUT', url: string, body: object, expected: number) => {
      const res = await request(api, method, url, body);
      expect({ op: o, status: res.statusCode }).toEqual({ op: o, status: expected });
      return res;
    };

    if (o.kind === 'create' || (!entry && 'entry' in o) || (!target && 'payment' in o)) {
      const c = 'cents' in o ? o.cents : 100;
      const res = await call(
        'POST',
        '/entries/new',
        { billId, date: '2026-11-01', flow: 'income', amount: money(c) },
        201,
      );
      model.push({ id: res.json<Entry>().entryId, cents: c, recycled: false, payments: [] });
      return;
    }
    if (entry) {
      if (o.kind === 'editAmount') {
        await call('PUT', '/entries/edit', { entryId: entry.id, amount: money(o.cents) }, entry.recycled ? 409 : 200);
        if (!entry.recycled) entry.cents = o.cents;
      } else if (o.kind === 'pay') {
        const body = { entryId: entry.id, date: '2026-11-02', amount: money(o.cents), type: 'cash', medium: 'person' };
        const res = await call('POST', '/payments', body, entry.recycled ? 409 : 201);
        if (!entry.recycled) {
          entry.payments.push({ id: res.json<Payment>().paymentId, cents: o.cents, recycled: false, cascade: false });
        }
      } else if (o.kind === 'deleteEntry') {
        await call('PUT', '/entries/edit', { entryId: entry.id, recycle: true }, 200);
        if (!entry.recycled) {
          entry.recycled = true;
          for (const p of entry.payments.filter((p) => !p.recycled))
            Object.assign(p, { recycled: true, cascade: true });
        }
      } else if (o.kind === 'restoreEntry') {
        await call('PUT', '/entries/edit', { entryId: entry.id, recycle: false }, 200);
        if (entry.recycled) {
          entry.recycled = false;
          for (const p of entry.payments.filter((p) => p.cascade))
            Object.assign(p, { recycled: false, cascade: false });
        }
      }
      return;
    }
    if (!target) return;
    const { entry: owner, payment } = target;
    if (o.kind === 'editPayment') {
      await call('PUT', '/payments', { paymentId: payment.id, amount: money(o.cents) }, payment.recycled ? 409 : 200);
      if (!payment.recycled) payment.cents = o.cents;
    } else if (o.kind === 'deletePayment') {
      await call('PUT', '/payments', { paymentId: payment.id, recycle: true }, 200);
      if (!payment.recycled) Object.assign(payment, { recycled: true, cascade: false });
    } else if (o.kind === 'restorePayment') {
      const refused = payment.recycled && owner.recycled;
      await call('PUT', '/payments', { paymentId: payment.id, recycle: false }, refused ? 409 : 200);
      if (!refused) Object.assign(payment, { recycled: false, cascade: false });
    }
  }

  async function compare(model: ModelEntry[]): Promise<void> {
    for (const e of model) {
      const res = await request(api, 'GET', `/entries/${e.id}?filter=bypass`);
      expect(res.json<Entry>()).toMatchObject(expectedEntry(e));
      const list = await request(api, 'GET', `/payments?entryId=${e.id}`);
      const live = list.json<PaymentList>().paymentDTOList.map((p) => [p.paymentId, p.amount]);
      const expected = e.payments.filter((p) => !p.recycled).map((p) => [p.id, money(p.cents)]);
      expect(live.sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(expected);
    }
  }

  it('keeps status, overpaid and balance exact through random create / edit / pay / delete / restore', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15, size: 'max' }), async (ops) => {
        const bill = await createBill(api);
        const model: ModelEntry[] = [];
        for (const o of ops) {
          await step(model, bill.id, o);
          await compare(model);
        }
        // The stored total of every invoice equals the SUM of its live payments, recycled invoices included.
        const rows = await t.app.db
          .selectFrom('entries')
          .select(['id', 'paid_cents', 'payment_count'])
          .where('bill_id', '=', bill.id)
          .execute();
        for (const row of rows) {
          const e = model.find((m) => m.id === row.id);
          const live = e?.payments.filter((p) => !p.recycled) ?? [];
          expect(row).toEqual({ id: row.id, paid_cents: e ? livePaid(e) : 0, payment_count: live.length });
        }
      }),
      {
        numRuns: 40,
        // Always also run the transitions the cascade rules are about, whatever the random runs meet.
        examples: [
          [
            [
              { kind: 'create', cents: 10_000 },
              { kind: 'pay', entry: 0, cents: 3_000 },
              { kind: 'pay', entry: 0, cents: 2_000 },
              { kind: 'deletePayment', payment: 0 },
              { kind: 'deleteEntry', entry: 0 },
              { kind: 'pay', entry: 0, cents: 1 },
              { kind: 'restorePayment', payment: 0 },
              { kind: 'restoreEntry', entry: 0 },
              { kind: 'restorePayment', payment: 0 },
              { kind: 'editAmount', entry: 0, cents: 4_999 },
              { kind: 'editPayment', payment: 1, cents: 5_000 },
            ],
          ],
        ],
      },
    );
  }, 120_000);
});
