import type { SortField, SortOrder } from '@billfold/contract/entries';
import { type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database, EntriesTable } from '../../db/schema.ts';
import { type EntryScope, FILTERS, sets } from './scope.ts';

/**
 * Step 3 of the read model: a scope as SQL, over `entries` and over the rollup tables. Everything a list, count
 * or export reads is answered from `entries` alone: entity columns and payment totals are stored on each row
 * (docs/decisions/0003-denormalised-entries.md), so nothing joins or aggregates to filter or sort.
 */

export type EntriesSelect = SelectQueryBuilder<Database, 'entries', object>;

/** Stored column per sort field; each has a partial index `entries_live_<x>` over (ledger_id, column, invoice_number). */
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
  // Without a due date an invoice sorts as due after every date (`9999-12-31`, migration 2026-11-29T00-00).
  dueDate: 'due_sort',
} as const satisfies Record<SortField, keyof EntriesTable>;

export type SortColumn = (typeof SORT_COLUMNS)[SortField];

export interface EntrySort {
  field: SortField;
  order: SortOrder;
}

export const DEFAULT_SORT: EntrySort = { field: 'date', order: 'desc' };

/** How the plan (step 2) wants a scope written; the rows are the same either way. */
export interface SqlHints {
  /**
   * SQLite only: write the date bounds as `+date`, which SQLite cannot answer from an index, so that it walks
   * the sort's category index and checks the dates on the rows it meets instead of reading the whole date
   * range and sorting it.
   */
  datesUnindexed?: boolean;
  /**
   * Write the paid filter on the balance (`PAID_FILTERS`). For balance sorts: a walk of a balance index then
   * starts and stops at the rows that match. Elsewhere a balance range can tempt the planner away from the
   * sort's own index.
   */
  balanceBound?: boolean;
}

/**
 * The number of files attached to each of the invoices `ids` of the ledger (every invoice of it when absent), or to
 * their live payments; invoices without any are left out.
 */
export function attachmentCounts(ledgerId: number, ids?: readonly number[]) {
  const own = ids ? sql` and a.entry_id in (${sql.join(ids)})` : sql``;
  const paid = ids ? sql` and p.entry_id in (${sql.join(ids)})` : sql``;
  return sql<{ entry_id: number; n: number }>`select entry_id, count(*) as n from (
      select a.entry_id from attachments a where a.ledger_id = ${ledgerId} and a.entry_id is not null${own}
      union all
      select p.entry_id from payments p inner join attachments a on a.payment_id = p.id
        where p.ledger_id = ${ledgerId} and p.recycled_at is null${paid}
    ) files group by entry_id`;
}

/**
 * The live (not recycled) entries in the scope. `ledger_id = ? AND recycled_at IS NULL` is written exactly so
 * that SQLite can use the partial indexes `entries_live_*`.
 */
export function scopedEntries(db: Kysely<Database>, s: EntryScope, hints: SqlHints = {}): EntriesSelect {
  const q: EntriesSelect = db
    .selectFrom('entries')
    .where('ledger_id', '=', s.ledgerId)
    .where('recycled_at', 'is', null);
  return FILTERS.reduce((q, filter) => (sets(s, filter) ? filter.entries(q, s, hints) : q), q);
}

/**
 * `ORDER BY <column> <order>, invoice_number <order>`: the invoice number is unique per ledger, so the order
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

/** The rollup terms of the filters the scope sets, on a count table or on a per-entity table. */
function rollupTerms(s: EntryScope, table: 'counts' | 'bills') {
  return FILTERS.flatMap((filter) => {
    if (typeof filter.rollups !== 'object' || !sets(s, filter)) return [];
    return filter.rollups[table]?.(s) ?? [];
  });
}

/** The scope on a count table (`entry_*_counts`): its key columns are the entry's own copies. */
export function countTableWhere(s: EntryScope): Expression<SqlBool> {
  const and = [sql`ledger_id = ${s.ledgerId}`, sql`entry_count <> 0`, ...rollupTerms(s, 'counts')];
  return sql<SqlBool>`${sql.join(and, sql` and `)}`;
}

/**
 * The scope on a per-entity table `t` joined with `bills b`: the entity's columns are read from `bills`, which
 * the write side keeps equal to the copies on its entries (ADR 0003).
 */
export function billTableWhere(s: EntryScope, countColumn: 'entry_count' | 'payment_count'): Expression<SqlBool> {
  const and = [sql`t.ledger_id = ${s.ledgerId}`, sql`t.${sql.ref(countColumn)} <> 0`, ...rollupTerms(s, 'bills')];
  return sql<SqlBool>`${sql.join(and, sql` and `)}`;
}
