import { fromCents } from '@billfold/contract/money';
import type { Payment } from '@billfold/contract/payments';
import type { PaymentRow } from '../../db/schema.ts';

export function toPayment(row: PaymentRow): Payment {
  return {
    paymentId: row.id,
    id: row.id,
    entryId: row.entry_id,
    date: row.date,
    amount: fromCents(row.amount_cents),
    type: row.type,
    medium: row.medium,
    notes: row.notes,
    autopay: row.autopay === 1,
    recycle: row.recycled_at !== null,
  };
}
