import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { nextTurn } from '../../lib/turns.ts';
import { ENTRY_SUM_NAMES, ENTRY_SUMS } from './sums.ts';

/**
 * The rollup tables that the triggers of migration `2026-11-23T00-00_rollups` keep exact in the same
 * transaction as every write (docs/decisions/0400-rollups.md): their row types, their recomputation from the
 * base tables (after a bulk load with the triggers off) and the check that they equal it.
 */

interface StateCounts {
  ledger_id: number;
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
    ledger_id: number;
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
    ledger_id: number;
    bill_id: number;
    flow: string;
    pay_state: number;
    type: string;
    medium: string;
    payment_count: number;
    amount_cents: number;
  };
};

export type RollupDb = Kysely<Database & RollupTables>;

export function withRollups(db: Db): RollupDb {
  return db.withTables<RollupTables>();
}

// ------------------------------------------------------------------ rebuild and check

const STATE = ['internal', 'archived', 'flow', 'pay_state'];

function countsOf(period: { column: string; expr: string } | null, category: boolean) {
  const keys = [...(category ? ['category'] : []), ...STATE];
  const exprs = ['e.ledger_id', ...(period ? [period.expr] : []), ...keys.map((k) => `e.${k}`)];
  const columns = ['ledger_id', ...(period ? [period.column] : []), ...keys];
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
    columns: ['ledger_id', 'bill_id', 'flow', 'pay_state', 'entry_count', ...ENTRY_SUM_NAMES],
    select: `SELECT e.ledger_id AS ledger_id, e.bill_id AS bill_id, e.flow AS flow, e.pay_state AS pay_state,
               count(*) AS entry_count, ${ENTRY_SUM_NAMES.map((name) => `sum(${ENTRY_SUMS[name].sql}) AS ${name}`).join(', ')}
             FROM entries e WHERE e.recycled_at IS NULL GROUP BY e.ledger_id, e.bill_id, e.flow, e.pay_state`,
  },
  payment_bill_totals: {
    columns: ['ledger_id', 'bill_id', 'flow', 'pay_state', 'type', 'medium', 'payment_count', 'amount_cents'],
    select: `SELECT e.ledger_id AS ledger_id, e.bill_id AS bill_id, e.flow AS flow, e.pay_state AS pay_state,
               p.type AS type, p.medium AS medium, count(*) AS payment_count, sum(p.amount_cents) AS amount_cents
             FROM payments p JOIN entries e ON e.id = p.entry_id WHERE p.recycled_at IS NULL AND e.recycled_at IS NULL
             GROUP BY e.ledger_id, e.bill_id, e.flow, e.pay_state, p.type, p.medium`,
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

/** The value columns of each rollup; the others are its key. */
const MEASURES: Record<keyof RollupTables, string[]> = {
  entry_state_counts: ['entry_count'],
  entry_month_state_counts: ['entry_count'],
  entry_month_counts: ['entry_count'],
  entry_day_counts: ['entry_count'],
  entry_bill_totals: ['entry_count', ...ENTRY_SUM_NAMES],
  payment_bill_totals: ['payment_count', 'amount_cents'],
};

/**
 * Adds to the rollups the live entries that `filter` selects (a condition on `e`, the entries) with their live
 * payments, one grouped statement per table: for rows inserted while the row triggers that would have added them
 * were off (a CSV import on SQLite, ADR 0903). The recomputations above are reused with the filter in their WHERE.
 */
export async function addToRollups(db: Db, filter: RawBuilder<SqlBool>): Promise<void> {
  for (const [i, table] of ROLLUP_TABLES.entries()) {
    // One grouped statement per table over a whole import: a turn of the event loop between them (lib/turns.ts).
    if (i > 0) await nextTurn();
    const { columns, select } = EXPECTED[table];
    const measures = MEASURES[table];
    const keys = columns.filter((c) => !measures.includes(c));
    const [head, tail] = select.split(' WHERE ');
    await sql`INSERT INTO ${sql.table(table)} (${sql.raw(columns.join(', '))})
      ${sql.raw(head as string)} WHERE (${filter}) AND ${sql.raw(tail as string)}
      ON CONFLICT (${sql.raw(keys.join(', '))}) DO UPDATE SET ${sql.raw(measures.map((m) => `${m} = ${table}.${m} + excluded.${m}`).join(', '))}`.execute(
      db,
    );
  }
}
