import { categoryLabel } from '@billfold/contract/categories';
import type { EntryFilters, SortField } from '@billfold/contract/schemas';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, EntriesTable } from '../../db/schema.ts';
import { billNameKey } from '../bills/bill.mapper.ts';
import { PAY_STATE } from './entry.derived.ts';

/**
 * The one translation of the list filters into SQL, shared by the list, the stats and the export.
 * Everything is answered from `entries` alone: entity columns and payment totals are stored on each
 * row, so no join and no aggregation of payments is ever needed to filter or sort.
 */

export type SortOrder = 'asc' | 'desc';
export type EntriesSelect = SelectQueryBuilder<Database, 'entries', object>;

/** Stored column per sort field; each has a partial index `entries_live_<x>` over (user_id, column, invoice_number). */
export const SORT_COLUMNS = {
  invoiceId: 'invoice_number',
  name: 'bill_name_key',
  date: 'date',
  flow: 'flow',
  amount: 'amount_cents',
  status: 'pay_state',
  balance: 'balance_cents',
  services: 'services',
  category: 'category',
  internal: 'internal',
  archived: 'archived',
} as const satisfies Record<SortField, keyof EntriesTable>;

export type SortColumn = (typeof SORT_COLUMNS)[SortField];

export interface EntrySort {
  field: SortField;
  order: SortOrder;
}

export const DEFAULT_SORT: EntrySort = { field: 'date', order: 'desc' };

/** The API's filters, plus what a caller may add on its own (stats leave internal entries out by default). */
export type EntryQueryFilters = EntryFilters & { withoutInternal?: boolean };

/**
 * Sorts with a second index `entries_live_category_<x>` over (user_id, category, column, invoice_number): a
 * page of one category in that order is a walk of it (docs/decisions/0402-category-sorts.md).
 */
export const CATEGORY_SORTS: ReadonlySet<SortColumn> = new Set<SortColumn>(['balance_cents', 'amount_cents']);

export interface PlanHints {
  /**
   * SQLite only: write the date bounds as `+date`, which SQLite cannot answer from an index, so that it walks
   * the sort's category index and checks the dates on the rows it meets instead of reading the whole date
   * range and sorting it. Its planner cannot tell a wide range from a narrow one; the caller can.
   */
  datesUnindexed?: boolean;
  /**
   * Write the paid filter on the balance (`balanceBound`). Only for balance sorts: elsewhere a balance range
   * can tempt the planner away from the sort's own index.
   */
  balanceBound?: boolean;
}

/**
 * The live (not recycled) entries of one user that match the filters. `user_id = ? AND recycled_at IS NULL`
 * is written exactly so that SQLite can use the partial indexes `entries_live_*`.
 */
export function filteredEntries(
  db: Kysely<Database>,
  userId: number,
  filters: EntryQueryFilters,
  hints: PlanHints = {},
): EntriesSelect {
  let q: EntriesSelect = db.selectFrom('entries').where('user_id', '=', userId).where('recycled_at', 'is', null);
  const date = hints.datesUnindexed ? sql<string>`+${sql.ref('date')}` : sql.ref<string>('date');
  if (filters.startDate !== undefined) q = q.where(date, '>=', filters.startDate);
  if (filters.endDate !== undefined) q = q.where(date, '<=', filters.endDate);
  if (filters.invoiceNum !== undefined) q = q.where('invoice_number', '=', filters.invoiceNum);
  if (filters.partyList !== undefined) {
    // Entity names are unique per user case-insensitively, so the stored lower-case key identifies one.
    const keys = [...new Set(filters.partyList.map((name) => billNameKey(name.trim())))];
    q = keys.length === 0 ? q : q.where('bill_name_key', 'in', keys);
  }
  if (filters.categoryList !== undefined) {
    // `AUTO_LOAN`, `auto loan` and `Auto Loan` name one category; an unknown one matches nothing.
    const categories = [...new Set(filters.categoryList.map(categoryLabel))];
    q = categories.length === 0 ? q : q.where('category', 'in', categories);
  }
  if (filters.min !== undefined) q = q.where('amount_cents', '>=', filters.min);
  if (filters.max !== undefined) q = q.where('amount_cents', '<=', filters.max);
  switch (filters.flow) {
    case 'income':
      q = q.where('flow', '=', 'INCOMING').where('internal', '=', 0);
      break;
    case 'expense':
      q = q.where('flow', '=', 'OUTGOING').where('internal', '=', 0);
      break;
    case 'internal':
      q = q.where('internal', '=', 1);
      break;
  }
  q = paidFilter(q, filters.paid, hints.balanceBound === true);
  if (filters.withoutInternal) q = q.where('internal', '=', 0);
  if (filters.archives === 'true') q = q.where('archived', '=', 1);
  if (filters.archives === 'false') q = q.where('archived', '=', 0);
  return q;
}

/** Each paid filter on the stored pay state, and the balance it implies (0 exactly when paid in full). */
const PAID_FILTERS = {
  true: { op: '>=', state: PAY_STATE.paid, balance: '=' },
  false: { op: '<', state: PAY_STATE.paid, balance: '>' },
  overpaid: { op: '=', state: PAY_STATE.overpaid, balance: '=' },
  partial: { op: '=', state: PAY_STATE.partial, balance: '>' },
} as const;

/**
 * The paid filter on the pay state or, for balance sorts, on the balance (see `derivePayment`): paid and
 * unpaid are exactly a zero and a positive balance, overpaid and partial keep their state as well. A walk of a
 * balance index then starts and stops at the rows that match instead of reading past every row of the other
 * side.
 */
function paidFilter(q: EntriesSelect, paid: EntryFilters['paid'], onBalance: boolean): EntriesSelect {
  if (paid === undefined) return q;
  const f = PAID_FILTERS[paid];
  if (!onBalance) return q.where('pay_state', f.op, f.state);
  const bounded = q.where('balance_cents', f.balance, 0);
  return paid === 'true' || paid === 'false' ? bounded : bounded.where('pay_state', f.op, f.state);
}

/**
 * `ORDER BY <column> <order>, invoice_number <order>`: the invoice number is unique per user, so the order
 * is total and pages never overlap or skip; both keys run the same way so one index walk (forwards or
 * backwards) yields the rows already sorted.
 */
export function orderEntries<O>(q: SelectQueryBuilder<Database, 'entries', O>, sort: EntrySort) {
  const column = SORT_COLUMNS[sort.field];
  const ordered = q.orderBy(column, sort.order);
  return column === 'invoice_number' ? ordered : ordered.orderBy('invoice_number', sort.order);
}

/** The sort key of a row, for keyset paging. */
export interface SortKey {
  value: string | number;
  invoiceNumber: number;
}

/** Rows strictly after `key` in the order of `sort` (keyset paging). */
export function afterKey<O>(q: SelectQueryBuilder<Database, 'entries', O>, sort: EntrySort, key: SortKey) {
  const column = SORT_COLUMNS[sort.field];
  const op = sort.order === 'asc' ? '>' : '<';
  if (column === 'invoice_number') return q.where('invoice_number', op, key.invoiceNumber);
  return q.where(({ eb, refTuple, tuple }) =>
    eb(refTuple(column, 'invoice_number'), op, tuple(key.value as never, key.invoiceNumber)),
  );
}
