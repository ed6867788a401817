import type { SortOrder } from '@billfold/contract/entries';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { withRollups } from './rollup-tables.ts';
import { type EntryScope, FILTERS, hasDates, needsRows, sets } from './scope.ts';
import { billTableWhere, countTableWhere } from './scope-sql.ts';
import { ENTRY_SUM_NAMES } from './sums.ts';

/**
 * Reads of the rollup tables (docs/decisions/0400-rollups.md). Each answers a scope exactly or not at all: the
 * plan (`plan.ts`) only sends here the scopes `rollupAnswers` accepts, and the scan of `entries` answers the
 * rest; the two always agree (test/read-model.test.ts, test/rollups.test.ts).
 */

type CountTableName = 'entry_state_counts' | 'entry_month_state_counts' | 'entry_month_counts' | 'entry_day_counts';

// ------------------------------------------------------------------ counts

/** The finest table a count needs: entity names need the per-entity table, categories the per-category ones. */
function monthTable(s: EntryScope): CountTableName {
  return s.categories ? 'entry_month_counts' : 'entry_month_state_counts';
}

/**
 * `(month, n)`: live entries per month of the date range, whole months from a month table, a partial first
 * or last month summed from the day table (`["-00", "-99"]` brackets every day of a month). A month without
 * entries has `n` 0 or null.
 */
function monthCountsSql(s: EntryScope) {
  const where = countTableWhere(s);
  const first = s.startDate?.slice(0, 7);
  const last = s.endDate?.slice(0, 7);
  const daySum = (month: string, from: string, to: string) =>
    sql`select ${month} as month, sum(entry_count) as n from entry_day_counts
      where ${where} and day >= ${from} and day <= ${to}`;
  const parts = [
    sql`select month, sum(entry_count) as n from ${sql.table(monthTable(s))}
      where ${where}${first === undefined ? sql`` : sql` and month > ${first}`}${last === undefined ? sql`` : sql` and month < ${last}`}
      group by month`,
  ];
  if (first !== undefined) {
    parts.push(daySum(first, s.startDate as string, last === first ? (s.endDate as string) : `${first}-99`));
  }
  if (last !== undefined && last !== first) parts.push(daySum(last, `${last}-00`, s.endDate as string));
  return sql.join(parts, sql` union all `);
}

/**
 * Which rollup reads answer a scope exactly. Counts and seeks key entries by their own copies per month and
 * day (no entity names); the per-entity tables have entity names but no dates. Amount ranges and invoice
 * numbers are on no rollup.
 */
export function rollupAnswers(s: EntryScope): { count: boolean; seek: boolean; stats: boolean } {
  if (needsRows(s)) return { count: false, seek: false, stats: false };
  const dated = hasDates(s);
  // A filter the count tables do not key (entity names): only the per-entity tables, which have no dates, know it.
  const counted = !FILTERS.some((f) => typeof f.rollups === 'object' && f.rollups.counts === null && sets(s, f));
  return { count: !dated || counted, seek: counted, stats: !dated };
}

/** The number of live entries in the scope (`rollupAnswers(s).count`). */
export async function rollupCount(db: Db, s: EntryScope): Promise<number> {
  const r = withRollups(db);
  if (hasDates(s)) {
    const { rows } = await sql<{ n: number | null }>`select sum(n) as n from (${monthCountsSql(s)}) months`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  if (!s.nameKeys && !s.categories) {
    // Flow, paid and archive filters only: a few dozen rows per ledger.
    const row = await r
      .selectFrom('entry_state_counts')
      .select((eb) => eb.fn.sum<number>('entry_count').as('n'))
      .where(countTableWhere(s))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
  const row = await r
    .selectFrom('entry_bill_totals as t')
    .innerJoin('bills as b', 'b.id', 't.bill_id')
    .select((eb) => eb.fn.sum<number>('t.entry_count').as('n'))
    .where(billTableWhere(s, 'entry_count'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Deep pages in date order without walking every row before them: the month and then the day that holds
 * row `offset` are found from the counts, and the page becomes "rows on or before (after) that day, from
 * `offset − rows after it`". Returns the narrowed date bounds and the remaining offset, or `null` past the
 * end (`rollupAnswers(s).seek`).
 *
 * One statement (a round trip counts on PostgreSQL): the live entries per month of the range (whole months
 * from a month table, a partial first or last month from the day table), a running sum in page order that
 * picks the month holding row `offset`, and that month's days with the rows before the month.
 */
export async function rollupDateSeek(
  db: Db,
  s: EntryScope,
  order: SortOrder,
  offset: number,
): Promise<{ startDate?: string; endDate?: string; offset: number } | null> {
  const where = countTableWhere(s);
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const { rows } = await sql<{ day: string; n: number; skipped: number }>`
    with months as (${monthCountsSql(s)}),
    running as (
      select month, n, sum(n) over (order by month ${direction} rows between unbounded preceding and current row) - n as skipped
      from months where n > 0
    ),
    target as (select month, skipped from running where skipped <= ${offset} and skipped + n > ${offset})
    select d.day, sum(d.entry_count) as n, target.skipped from entry_day_counts d
    join target on d.day >= target.month || '-00' and d.day <= target.month || '-99'
    where ${where}${s.startDate === undefined ? sql`` : sql` and d.day >= ${s.startDate}`}${s.endDate === undefined ? sql`` : sql` and d.day <= ${s.endDate}`}
    group by d.day, target.skipped
    order by d.day ${direction}`.execute(db);
  let before = Number(rows[0]?.skipped ?? 0);
  for (const { day, n } of rows) {
    const count = Number(n);
    if (before + count > offset) {
      return order === 'desc' ? { endDate: day, offset: offset - before } : { startDate: day, offset: offset - before };
    }
    before += count;
  }
  return null; // past the end: the usual query returns the empty page
}

// ------------------------------------------------------------------ stats

/** Sums of the scope's live entries per flow, internal flag and entity, from `entry_bill_totals`: a few thousand rows however many invoices (`rollupAnswers(s).stats`). */
export function rollupEntryGroups(db: Db, s: EntryScope) {
  return withRollups(db)
    .selectFrom('entry_bill_totals as t')
    .innerJoin('bills as b', 'b.id', 't.bill_id')
    .select((eb) => [
      't.flow',
      'b.internal',
      'b.name as bill_name',
      'b.category',
      ...ENTRY_SUM_NAMES.map((name) => eb.fn.sum<number>(`t.${name}`).as(name)),
    ])
    .where(billTableWhere(s, 'entry_count'))
    .groupBy(['t.flow', 'b.internal', 'b.name', 'b.category']);
}

/** Σ and count of the scope's live payments per flow, internal flag and method, from `payment_bill_totals`. */
export function rollupMethodGroups(db: Db, s: EntryScope) {
  return withRollups(db)
    .selectFrom('payment_bill_totals as t')
    .innerJoin('bills as b', 'b.id', 't.bill_id')
    .select((eb) => [
      't.flow',
      'b.internal',
      't.type',
      't.medium',
      eb.fn.sum<number>('t.amount_cents').as('total'),
      eb.fn.sum<number>('t.payment_count').as('count'),
    ])
    .where(billTableWhere(s, 'payment_count'))
    .groupBy(['t.flow', 'b.internal', 't.type', 't.medium']);
}
