import { categoryLabel } from '@billfold/contract/categories';
import type { Entry } from '@billfold/contract/entries';
import { fromCents } from '@billfold/contract/money';
import type { EntryRow } from '../../db/schema.ts';
import { PAY_STATE } from '../payment-totals/payment-totals.ts';

export type EntryView = Pick<
  EntryRow,
  | 'id'
  | 'invoice_number'
  | 'bill_id'
  | 'bill_name'
  | 'category'
  | 'date'
  | 'flow'
  | 'amount_cents'
  | 'services'
  | 'due_date'
  | 'paid_cents'
  | 'pay_state'
  | 'internal'
  | 'archived'
  | 'recycled_at'
  | 'estimate_cents'
  | 'estimated'
>;

/** The entry view with what is still owed on the invoice, in cents: the due reads' rows. */
export type OwedEntryView = EntryView & Pick<EntryRow, 'balance_cents'>;

/**
 * The columns `toEntry` reads; select exactly these for any entry response. Plus `due_sort`, the Due sort's key,
 * which keyset paging reads off the last row like every other sort column.
 */
export const ENTRY_VIEW_COLUMNS = [
  'due_sort',
  'id',
  'invoice_number',
  'bill_id',
  'bill_name',
  'category',
  'date',
  'flow',
  'amount_cents',
  'services',
  'due_date',
  'paid_cents',
  'pay_state',
  'internal',
  'archived',
  'recycled_at',
  'estimate_cents',
  'estimated',
] as const satisfies readonly (keyof EntryRow)[];

export function toEntry(row: EntryView): Entry {
  return {
    entryId: row.id,
    invoiceId: row.invoice_number,
    billId: row.bill_id,
    name: row.bill_name,
    category: categoryLabel(row.category),
    date: row.date,
    flow: row.flow === 'INCOMING' ? 'INCOMING' : 'OUTGOING',
    amount: fromCents(row.amount_cents),
    services: row.services,
    dueDate: row.due_date,
    estimate: row.estimate_cents === null ? null : fromCents(Number(row.estimate_cents)),
    estimated: row.estimated === 1,
    status: row.pay_state >= PAY_STATE.paid,
    overpaid: row.pay_state === PAY_STATE.overpaid,
    balance: {
      totalBalance: fromCents(Math.max(row.amount_cents - row.paid_cents, 0)),
      totalOverpaid: fromCents(Math.max(row.paid_cents - row.amount_cents, 0)),
    },
    internal: row.internal === 1,
    archived: row.archived === 1,
    recycle: row.recycled_at !== null,
  };
}
