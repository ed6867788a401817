import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * Whole-database views for the security suites: a snapshot of every application table (found in the database's
 * own catalogue, so a table added later is covered without touching this file) and the invariant that every
 * invoice's stored payment totals equal a recomputation from its live payments.
 */

export type Row = Record<string, unknown>;
export type Snapshot = Record<string, Row[]>;

/** Application tables: everything but Kysely's migration bookkeeping. */
export async function tableNames(db: Db): Promise<string[]> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const result = postgres
    ? await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master
        where type = 'table' and name not like 'sqlite_%'`.execute(db);
  return result.rows
    .map((row) => row.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
}

/** How many rows a table holds. */
export async function rowCount(db: Db, table: string): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Every row of every table, in a stable order: by their full text, since not every table has a unique first
 * column (rollup tables), and rows with equal sort keys may come back in any order.
 */
export async function snapshot(db: Db, tables: readonly string[]): Promise<Snapshot> {
  const state: Snapshot = {};
  for (const table of tables) {
    const result = await sql<Row>`select * from ${sql.table(table)}`.execute(db);
    const keyed = result.rows.map((row) => [JSON.stringify(row), row] as const);
    keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    state[table] = keyed.map(([, row]) => row);
  }
  return state;
}

/** Tables whose rows differ between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const tables = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...tables].filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table])).sort();
}

/** For a failure message: the rows only one side of each changed table has. */
export function describeChanges(before: Snapshot, after: Snapshot): string {
  return changedTables(before, after)
    .map((table) => {
      const was = new Set((before[table] ?? []).map((row) => JSON.stringify(row)));
      const now = new Set((after[table] ?? []).map((row) => JSON.stringify(row)));
      const gone = [...was].filter((row) => !now.has(row)).slice(0, 5);
      const added = [...now].filter((row) => !was.has(row)).slice(0, 5);
      return `${table}:\n  - ${gone.join('\n  - ')}\n  + ${added.join('\n  + ')}`;
    })
    .join('\n');
}

export interface TotalsMismatch {
  id: number;
  stored: { paid: number; balance: number; payState: number; count: number };
  expected: { paid: number; balance: number; payState: number; count: number };
}

/**
 * Invoices whose stored `paid_cents`, `balance_cents`, `pay_state` and `payment_count` differ from a recomputation
 * from their live payments (written here independently of the server's code: 0 unpaid, 1 partial — paid above zero but
 * below the amount, 2 paid, 3 overpaid).
 */
export async function totalsMismatches(db: Db): Promise<TotalsMismatch[]> {
  const entries = await db
    .selectFrom('entries')
    .select(['id', 'amount_cents', 'paid_cents', 'balance_cents', 'pay_state', 'payment_count'])
    .orderBy('id')
    .execute();
  const sums = await db
    .selectFrom('payments')
    .select((eb) => ['entry_id', eb.fn.sum<number>('amount_cents').as('paid'), eb.fn.countAll<number>().as('count')])
    .where('recycled_at', 'is', null)
    .groupBy('entry_id')
    .execute();
  const byEntry = new Map(sums.map((s) => [Number(s.entry_id), { paid: Number(s.paid), count: Number(s.count) }]));
  const mismatches: TotalsMismatch[] = [];
  for (const entry of entries) {
    const amount = Number(entry.amount_cents);
    const { paid, count } = byEntry.get(Number(entry.id)) ?? { paid: 0, count: 0 };
    const payState = paid > amount ? 3 : paid >= amount ? 2 : paid > 0 ? 1 : 0;
    const expected = { paid, balance: Math.max(amount - paid, 0), payState, count };
    const stored = {
      paid: Number(entry.paid_cents),
      balance: Number(entry.balance_cents),
      payState: Number(entry.pay_state),
      count: Number(entry.payment_count),
    };
    if (JSON.stringify(stored) !== JSON.stringify(expected))
      mismatches.push({ id: Number(entry.id), stored, expected });
  }
  return mismatches;
}
