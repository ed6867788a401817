import type { EntryRow } from '../../db/schema.ts';
import type { PaymentTotals, PaymentTotalsRepository } from './payment-totals.repository.ts';
import { derivePayment } from './payment-totals.ts';

type TotalsRow = Pick<EntryRow, 'id' | 'amount_cents' | 'paid_cents' | 'payment_count' | 'balance_cents' | 'pay_state'>;
const TOTALS_CHUNK = 500;

/**
 * Recomputes the stored totals of the given invoices from the SUM of their live payments, inside the caller's
 * transaction (which holds the invoices' locks), and writes those that changed. Returns the rows with fresh totals.
 * Every path that changes what is paid on an invoice (an invoice's amount or bin state, a payment, an entity's
 * restore) ends with this call (docs/decisions/1100-payment-totals.md).
 */
export async function refreshTotals<R extends TotalsRow>(
  repo: PaymentTotalsRepository,
  rows: readonly R[],
): Promise<R[]> {
  const totals = new Map<number, PaymentTotals>();
  for (let i = 0; i < rows.length; i += TOTALS_CHUNK) {
    const ids = rows.slice(i, i + TOTALS_CHUNK).map((row) => row.id);
    for (const total of await repo.livePaymentTotals(ids)) totals.set(total.entryId, total);
  }
  const fresh: R[] = [];
  for (const row of rows) {
    const total = totals.get(row.id);
    const derived = derivePayment(row.amount_cents, total?.paidCents ?? 0, total?.count ?? 0);
    const changed = (Object.keys(derived) as (keyof typeof derived)[]).some((key) => derived[key] !== row[key]);
    if (changed) await repo.writeTotals(row.id, derived);
    fresh.push({ ...row, ...derived });
  }
  return fresh;
}
