import { categoryLabel } from '@billfold/contract/categories';
import type { EntryFilters } from '@billfold/contract/schemas';
import { type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { billNameKey } from '../modules/bills/bill.mapper.ts';
import { PAY_STATE } from '../modules/entries/entry.derived.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Reads of the rollup tables that the triggers of migration `2026-11-23T00-00_rollups` keep exact in the
 * same transaction as every write (docs/decisions/0400-rollups.md). Each function answers only the filter
 * sets its tables can answer exactly and returns `null` otherwise, so the caller falls back to the query
 * over `entries`; the two always agree (test/rollups.test.ts).
 */

interface StateCounts {
  user_id: number;
  internal: number;
  archived: number;
  flow: string;
  pay_state: number;
  entry_count: number;
}

export type RollupTables = {
  entry_state_counts: StateCounts;
  entry_month_state_counts: StateCounts & { month: string };
  entry_month_counts: StateCounts & { month: string; category: string };
  entry_day_counts: StateCounts & { day: string; category: string };
  entry_bill_totals: {
    user_id: number;
    bill_id: number;
    flow: string;
    pay_state: number;
    entry_count: number;
    amount_cents: number;
    paid_cents: number;
    received_cents: number;
    overpaid_cents: number;
    balance_cents: number;
  };
  payment_bill_totals: {
    user_id: number;
    bill_id: number;
    flow: string;
    pay_state: number;
    type: string;
    medium: string;
    payment_count: number;
    amount_cents: number;
  };
};

type RollupDb = Kysely<Database & RollupTables>;

function withRollups(db: Db): RollupDb {
  return db.withTables<RollupTables>();
}

/** The list filters, plus the stats' own scope flag (internal entries left out). */
export type RollupFilters = EntryFilters & { withoutInternal?: boolean };

// ------------------------------------------------------------------ rebuild and check

const SUMS = {
  amount_cents: 'e.amount_cents',
  paid_cents: 'e.paid_cents',
  received_cents: 'CASE WHEN e.paid_cents < e.amount_cents THEN e.paid_cents ELSE e.amount_cents END',
  overpaid_cents: 'CASE WHEN e.paid_cents > e.amount_cents THEN e.paid_cents - e.amount_cents ELSE 0 END',
  balance_cents: 'e.balance_cents',
} as const;
const STATE = ['internal', 'archived', 'flow', 'pay_state'];

function countsOf(period: { column: string; expr: string } | null, category: boolean) {
  const keys = [...(category ? ['category'] : []), ...STATE];
  const exprs = ['e.user_id', ...(period ? [period.expr] : []), ...keys.map((k) => `e.${k}`)];
  const columns = ['user_id', ...(period ? [period.column] : []), ...keys];
  return {
    columns: [...columns, 'entry_count'],
    select: `SELECT ${exprs.map((e, i) => `${e} AS ${columns[i]}`).join(', ')}, count(*) AS entry_count
             FROM entries e WHERE e.recycled_at IS NULL GROUP BY ${exprs.join(', ')}`,
  };
}

const MONTH = { column: 'month', expr: 'substr(e.date, 1, 7)' };

/** The rollups as the triggers should have them, computed from the base tables (no zero rows). */
const EXPECTED: Record<keyof RollupTables, { columns: string[]; select: string }> = {
  entry_state_counts: countsOf(null, false),
  entry_month_state_counts: countsOf(MONTH, false),
  entry_month_counts: countsOf(MONTH, true),
  entry_day_counts: countsOf({ column: 'day', expr: 'e.date' }, true),
  entry_bill_totals: {
    columns: ['user_id', 'bill_id', 'flow', 'pay_state', 'entry_count', ...Object.keys(SUMS)],
    select: `SELECT e.user_id AS user_id, e.bill_id AS bill_id, e.flow AS flow, e.pay_state AS pay_state,
               count(*) AS entry_count, ${Object.entries(SUMS)
                 .map(([name, s]) => `sum(${s}) AS ${name}`)
                 .join(', ')}
             FROM entries e WHERE e.recycled_at IS NULL GROUP BY e.user_id, e.bill_id, e.flow, e.pay_state`,
  },
  payment_bill_totals: {
    columns: ['user_id', 'bill_id', 'flow', 'pay_state', 'type', 'medium', 'payment_count', 'amount_cents'],
    select: `SELECT e.user_id AS user_id, e.bill_id AS bill_id, e.flow AS flow, e.pay_state AS pay_state,
               p.type AS type, p.medium AS medium, count(*) AS payment_count, sum(p.amount_cents) AS amount_cents
             FROM payments p JOIN entries e ON e.id = p.entry_id WHERE p.recycled_at IS NULL AND e.recycled_at IS NULL
             GROUP BY e.user_id, e.bill_id, e.flow, e.pay_state, p.type, p.medium`,
  },
};

export const ROLLUP_TABLES = Object.keys(EXPECTED) as (keyof RollupTables)[];

/** Recomputes every rollup from the base tables: after a bulk load with the triggers off. */
export async function rebuildRollups(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of ROLLUP_TABLES) {
      await sql.raw(`DELETE FROM ${table}`).execute(trx);
      await sql
        .raw(`INSERT INTO ${table} (${EXPECTED[table].columns.join(', ')}) ${EXPECTED[table].select}`)
        .execute(trx);
    }
  });
}

/**
 * Rows where a rollup differs from a recomputation (zero rows the triggers leave behind are ignored).
 * Empty when the rollups are exact.
 */
export async function rollupDifferences(db: Db): Promise<{ table: string; row: Record<string, unknown> }[]> {
  const out: { table: string; row: Record<string, unknown> }[] = [];
  for (const table of ROLLUP_TABLES) {
    const { columns, select } = EXPECTED[table];
    const count = table === 'payment_bill_totals' ? 'payment_count' : 'entry_count';
    // Numbers come back as strings or numbers depending on the driver: compare as text.
    const norm = (r: Record<string, unknown>) => JSON.stringify(columns.map((c) => String(r[c])));
    const expected = (await sql.raw<Record<string, unknown>>(select).execute(db)).rows;
    const actual = (
      await sql
        .raw<Record<string, unknown>>(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${count} <> 0`)
        .execute(db)
    ).rows;
    const want = new Map(expected.map((r) => [norm(r), r]));
    const have = new Map(actual.map((r) => [norm(r), r]));
    for (const [key, row] of want) if (!have.has(key)) out.push({ table, row: { missing: true, ...row } });
    for (const [key, row] of have) if (!want.has(key)) out.push({ table, row: { unexpected: true, ...row } });
  }
  return out;
}

// ------------------------------------------------------------------ filters

interface Scope {
  userId: number;
  startDate: string | undefined;
  endDate: string | undefined;
  nameKeys: string[] | null;
  categories: string[] | null;
  flow: 'INCOMING' | 'OUTGOING' | null;
  internal: 0 | 1 | null;
  payState: { op: '>=' | '<' | '='; value: number } | null;
  archived: 0 | 1 | null;
}

/**
 * The filters the rollups can answer, normalised exactly as `filteredEntries` does; `null` when a filter
 * needs the rows themselves (amount range, invoice number).
 */
function scopeOf(userId: number, f: RollupFilters): Scope | null {
  if (f.invoiceNum !== undefined || f.min !== undefined || f.max !== undefined) return null;
  const names = f.partyList === undefined ? [] : [...new Set(f.partyList.map((n) => billNameKey(n.trim())))];
  const categories = f.categoryList === undefined ? [] : [...new Set(f.categoryList.map(categoryLabel))];
  let flow: Scope['flow'] = null;
  let internal: Scope['internal'] = null;
  if (f.flow === 'income') [flow, internal] = ['INCOMING', 0];
  if (f.flow === 'expense') [flow, internal] = ['OUTGOING', 0];
  if (f.flow === 'internal') internal = 1;
  if (f.withoutInternal) {
    if (internal === 1) return null; // internal and not internal: the caller's query answers "nothing" itself
    internal = 0;
  }
  const payState =
    f.paid === 'true'
      ? ({ op: '>=', value: PAY_STATE.paid } as const)
      : f.paid === 'false'
        ? ({ op: '<', value: PAY_STATE.paid } as const)
        : f.paid === 'overpaid'
          ? ({ op: '=', value: PAY_STATE.overpaid } as const)
          : f.paid === 'partial'
            ? ({ op: '=', value: PAY_STATE.partial } as const)
            : null;
  return {
    userId,
    startDate: f.startDate,
    endDate: f.endDate,
    nameKeys: names.length > 0 ? names : null,
    categories: categories.length > 0 ? categories : null,
    flow,
    internal,
    payState,
    archived: f.archives === 'true' ? 1 : f.archives === 'false' ? 0 : null,
  };
}

type CountTableName = 'entry_state_counts' | 'entry_month_state_counts' | 'entry_month_counts' | 'entry_day_counts';

/** The entry-column filters on a count table (its columns are the entry's own copies). */
function countTableWhere(s: Scope): Expression<SqlBool> {
  const and = [sql`user_id = ${s.userId}`, sql`entry_count <> 0`];
  if (s.categories) and.push(sql`category in (${sql.join(s.categories)})`);
  if (s.flow) and.push(sql`flow = ${s.flow}`);
  if (s.internal !== null) and.push(sql`internal = ${s.internal}`);
  if (s.payState) and.push(sql`pay_state ${sql.raw(s.payState.op)} ${s.payState.value}`);
  if (s.archived !== null) and.push(sql`archived = ${s.archived}`);
  return sql<SqlBool>`${sql.join(and, sql` and `)}`;
}

/**
 * The same filters on a per-entity table `t` joined with `bills b`: the entity's columns are read from
 * `bills`, which the write side keeps equal to the copies on its entries (ADR 0003).
 */
function billTableWhere(s: Scope, countColumn: 'entry_count' | 'payment_count'): Expression<SqlBool> {
  const and = [sql`t.user_id = ${s.userId}`, sql`t.${sql.ref(countColumn)} <> 0`];
  if (s.nameKeys) and.push(sql`b.name_key in (${sql.join(s.nameKeys)})`);
  if (s.categories) and.push(sql`b.category in (${sql.join(s.categories)})`);
  if (s.flow) and.push(sql`t.flow = ${s.flow}`);
  if (s.internal !== null) and.push(sql`b.internal = ${s.internal}`);
  if (s.payState) and.push(sql`t.pay_state ${sql.raw(s.payState.op)} ${s.payState.value}`);
  if (s.archived !== null) and.push(sql`b.status = ${s.archived === 1 ? 0 : 1}`);
  return sql<SqlBool>`${sql.join(and, sql` and `)}`;
}

const hasDates = (s: Scope) => s.startDate !== undefined || s.endDate !== undefined;

// ------------------------------------------------------------------ counts

/** The finest table a count needs: entity names need the per-entity table, categories the per-category ones. */
function monthTable(s: Scope): CountTableName {
  return s.categories ? 'entry_month_counts' : 'entry_month_state_counts';
}

/**
 * `(month, n)`: live entries per month of the date range, whole months from a month table, a partial first
 * or last month summed from the day table (`["-00", "-99"]` brackets every day of a month). A month without
 * entries has `n` 0 or null.
 */
function monthCountsSql(s: Scope) {
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
 * The number of live entries matching the list filters, from the rollups; `null` when they cannot answer
 * (an amount range, an invoice number, or entity names together with dates).
 */
export async function rollupCount(db: Db, userId: number, filters: RollupFilters): Promise<number | null> {
  const s = scopeOf(userId, filters);
  if (!s) return null;
  const r = withRollups(db);
  if (hasDates(s)) {
    if (s.nameKeys) return null;
    const { rows } = await sql<{ n: number | null }>`select sum(n) as n from (${monthCountsSql(s)}) months`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  if (!s.nameKeys && !s.categories) {
    // Flow, paid and archive filters only: a few dozen rows per user.
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

/** Below this offset a page is found by walking the index: cheaper than the two queries of a seek. */
export const SEEK_FROM_OFFSET = 5_000;

/**
 * Deep pages in date order without walking every row before them: the month and then the day that holds
 * row `offset` are found from the counts, and the page becomes "rows on or before (after) that day, from
 * `offset − rows after it`". Returns the narrowed date filter and the remaining offset, or `null` when the
 * rollups cannot answer the filters (the caller then pages as usual).
 *
 * One statement (a round trip counts on PostgreSQL): the live entries per month of the range (whole months
 * from a month table, a partial first or last month from the day table), a running sum in page order that
 * picks the month holding row `offset`, and that month's days with the rows before the month.
 */
export async function rollupDateSeek(
  db: Db,
  userId: number,
  filters: RollupFilters,
  order: 'asc' | 'desc',
  offset: number,
): Promise<{ startDate?: string; endDate?: string; offset: number } | null> {
  if (offset < SEEK_FROM_OFFSET) return null;
  const s = scopeOf(userId, filters);
  if (!s || s.nameKeys) return null;
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

/** Entry sums of one side-relevant group, as the stats repository's own query returns them. */
export interface EntryGroupRow {
  flow: string;
  internal: number;
  bill_name: string;
  category: string;
  amount: number;
  received: number;
  overpaid: number;
  outstanding: number;
  paid: number;
}

/**
 * `GROUP BY flow, internal, bill_name, category` of the matching live entries' sums, from
 * `entry_bill_totals` (a few thousand rows however many invoices); `null` when dates or amount filters
 * are set.
 */
export async function rollupEntryGroups(
  db: Db,
  userId: number,
  filters: RollupFilters,
): Promise<EntryGroupRow[] | null> {
  const s = scopeOf(userId, filters);
  if (!s || hasDates(s)) return null;
  const rows = await withRollups(db)
    .selectFrom('entry_bill_totals as t')
    .innerJoin('bills as b', 'b.id', 't.bill_id')
    .select((eb) => [
      't.flow',
      'b.internal',
      'b.name as bill_name',
      'b.category',
      eb.fn.sum<number>('t.amount_cents').as('amount'),
      eb.fn.sum<number>('t.received_cents').as('received'),
      eb.fn.sum<number>('t.overpaid_cents').as('overpaid'),
      eb.fn.sum<number>('t.balance_cents').as('outstanding'),
      eb.fn.sum<number>('t.paid_cents').as('paid'),
    ])
    .where(billTableWhere(s, 'entry_count'))
    .groupBy(['t.flow', 'b.internal', 'b.name', 'b.category'])
    .execute();
  return rows.map((r) => ({
    flow: r.flow,
    internal: Number(r.internal),
    bill_name: r.bill_name,
    category: r.category,
    amount: Number(r.amount),
    received: Number(r.received),
    overpaid: Number(r.overpaid),
    outstanding: Number(r.outstanding),
    paid: Number(r.paid),
  }));
}

/** Payment sums per method, as the stats repository's own query returns them. */
export interface MethodGroupRow {
  flow: string;
  internal: number;
  type: string;
  medium: string;
  total: number;
  count: number;
  /** The largest single payment of the row's SIDE (income or expense), not of its method alone. */
  max: number;
}

/** Above this many payments on a side, its largest one is found by walking `payments_live_amount` from the top. */
export const WALK_FROM_PAYMENTS = 100_000;

const isIncome = (r: { flow: string; internal: number }) => r.flow === 'INCOMING' && Number(r.internal) === 0;

/**
 * Σ and count of the matching live payments per flow, internal flag and method, from `payment_bill_totals`;
 * the largest single payment per side at query time (see `MethodGroupRow.max`). `null` when dates or amount
 * filters are set.
 */
export async function rollupMethodGroups(
  db: Db,
  userId: number,
  filters: RollupFilters,
  selection: (db: Db, userId: number, filters: RollupFilters) => SelectQueryBuilder<Database, 'entries', object>,
): Promise<MethodGroupRow[] | null> {
  const s = scopeOf(userId, filters);
  if (!s || hasDates(s)) return null;
  const rows = (
    await withRollups(db)
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
      .groupBy(['t.flow', 'b.internal', 't.type', 't.medium'])
      .execute()
  ).map((r) => ({ ...r, internal: Number(r.internal), total: Number(r.total), count: Number(r.count), max: 0 }));

  for (const income of [true, false]) {
    const side = rows.filter((r) => isIncome(r) === income);
    const payments = side.reduce((n, r) => n + r.count, 0);
    if (payments === 0) continue;
    const entries = selection(db, userId, filters).where((eb) =>
      income
        ? eb.and([eb('flow', '=', 'INCOMING'), eb('internal', '=', 0)])
        : eb.or([eb('flow', '<>', 'INCOMING'), eb('internal', '<>', 0)]),
    );
    let max: number;
    if (payments > WALK_FROM_PAYMENTS) {
      // A broad selection: among the largest payments one of it comes up within a few rows.
      const top = await db
        .selectFrom('payments as p')
        .innerJoin(entries.select('id').as('e'), 'e.id', 'p.entry_id')
        .select('p.amount_cents')
        .where('p.user_id', '=', userId)
        .where('p.recycled_at', 'is', null)
        .orderBy('p.amount_cents', 'desc')
        .limit(1)
        .executeTakeFirst();
      max = Number(top?.amount_cents ?? 0);
    } else {
      // A narrow one: from its entries to their payments (CROSS JOIN fixes that order on SQLite).
      const row = await db
        .selectFrom(entries.select('id').as('e'))
        .crossJoin('payments as p')
        .select((eb) => eb.fn.max('p.amount_cents').as('max'))
        .whereRef('p.entry_id', '=', 'e.id')
        .where('p.recycled_at', 'is', null)
        .executeTakeFirst();
      max = Number(row?.max ?? 0);
    }
    for (const r of side) r.max = max;
  }
  return rows;
}
