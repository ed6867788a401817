import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Pay states stored on each entry; their order is the order of `status` sorting. Partial is "not paid and a
 * paid total above zero" (the balance strictly between 0 and the amount): a payment of 0.00 leaves an invoice
 * unpaid, as its icon shows.
 */
export const PAY_STATE = { unpaid: 0, partial: 1, paid: 2, overpaid: 3 } as const;

/**
 * The stored derivations of an entry's payment total, kept in the same transaction as every payment,
 * amount or recycle change. `paidCents` is the sum of the entry's non-recycled payments.
 */
export function derivePayment(amountCents: number, paidCents: number, paymentCount: number) {
  let payState: number = PAY_STATE.unpaid;
  if (paidCents > amountCents) payState = PAY_STATE.overpaid;
  else if (paidCents >= amountCents) payState = PAY_STATE.paid;
  else if (paidCents > 0) payState = PAY_STATE.partial;
  return {
    paid_cents: paidCents,
    payment_count: paymentCount,
    balance_cents: Math.max(amountCents - paidCents, 0),
    pay_state: payState,
  };
}

/**
 * An invoice going to the recycle bin together with its live payments (`cascade` 1 when it goes with its entity):
 * nothing is paid on it any more, so its stored totals are set in the same statement.
 */
export function recycledEntry(at: number, cascade: 0 | 1) {
  return (eb: ExpressionBuilder<Database, 'entries'>) => ({
    recycled_at: at,
    recycled_cascade: cascade,
    paid_cents: 0,
    payment_count: 0,
    balance_cents: eb.ref('amount_cents'),
    pay_state: 0,
  });
}
