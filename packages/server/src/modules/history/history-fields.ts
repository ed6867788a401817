import { categoryLabel } from '@billfold/contract/categories';
import type { FieldChange, HistoryAction } from '@billfold/contract/history';
import { fromCents } from '@billfold/contract/money';
import type { BillRow, EntryRow, PaymentRow } from '../../db/schema.ts';

/**
 * The fields a change history records (docs/decisions/0108-change-history.md), as the API shows them: the wire's
 * names and values (money as decimal numbers, dates as ISO dates), read off the stored row. What follows from
 * other rows (an invoice's paid total, balance and status; its copies of the entity's name and category) is not
 * an item's own field and is not recorded.
 */
export type HistoryKind = 'entry' | 'payment' | 'bill';

type FieldValue = FieldChange['from'];
type Fields = Record<string, FieldValue>;
/** A row's bin state: missing on a row being inserted, which is live. */
type Bin = { recycled_at?: number | null };

/** A row being inserted may leave out its due date (none) and its estimated mark (not estimated). */
export type EntryFieldsRow = Pick<EntryRow, 'bill_id' | 'date' | 'flow' | 'amount_cents' | 'services'> & {
  due_date?: EntryRow['due_date'];
  estimated?: EntryRow['estimated'];
} & Bin;
export type PaymentFieldsRow = Pick<PaymentRow, 'date' | 'amount_cents' | 'type' | 'medium' | 'notes' | 'autopay'> &
  Bin;
export type BillFieldsRow = Pick<BillRow, 'name' | 'category' | 'internal' | 'status'> & Bin;

/** The row type each kind of item records from. */
export interface HistoryRows {
  entry: EntryFieldsRow;
  payment: PaymentFieldsRow;
  bill: BillFieldsRow;
}

const recycled = (row: Bin) => row.recycled_at != null;

/** Each kind's recorded fields, in the order a change lists them. */
export const FIELDS_OF: { [K in HistoryKind]: (row: HistoryRows[K]) => Fields } = {
  entry: (row) => ({
    billId: Number(row.bill_id),
    date: row.date,
    flow: row.flow === 'INCOMING' ? 'INCOMING' : 'OUTGOING',
    amount: fromCents(Number(row.amount_cents)),
    services: row.services,
    dueDate: row.due_date ?? null,
    estimated: Number(row.estimated ?? 0) === 1,
    recycle: recycled(row),
  }),
  payment: (row) => ({
    date: row.date,
    amount: fromCents(Number(row.amount_cents)),
    type: row.type,
    medium: row.medium,
    notes: row.notes,
    autopay: Number(row.autopay) === 1,
    recycle: recycled(row),
  }),
  bill: (row) => ({
    name: row.name,
    category: categoryLabel(row.category),
    internal: Number(row.internal) === 1,
    status: Number(row.status) === 1 ? 1 : 0,
    recycle: recycled(row),
  }),
};

/**
 * Each field whose value differs between `before` and `after`, from and to; with no `before` (a new item), every
 * field, `from` null. Empty when nothing changed.
 */
export function fieldChanges(before: Fields | null, after: Fields): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, to] of Object.entries(after)) {
    const from = before === null ? null : (before[field] ?? null);
    if (before === null || from !== to) changes.push({ field, from, to });
  }
  return changes;
}

/** The changes of one item of `kind` from row `before` (null: new) to row `after`. */
export function rowChanges<K extends HistoryKind>(
  kind: K,
  before: HistoryRows[K] | null,
  after: HistoryRows[K],
): FieldChange[] {
  const fieldsOf = FIELDS_OF[kind];
  return fieldChanges(before === null ? null : fieldsOf(before), fieldsOf(after));
}

/** Who a write's history names (null: the server's own work) and as what kind of change. */
export interface Author {
  actor: number | null;
  action: HistoryAction;
}
