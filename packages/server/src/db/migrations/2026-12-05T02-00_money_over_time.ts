import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Money over time (docs/decisions/1014-forecast.md): `ledger_forecasts` holds the starting balance a ledger's
 * members set for the cash-flow forecast, in cents (below zero allowed), one row per ledger once set.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('ledger_forecasts')
    .addColumn('ledger_id', 'bigint', (c) => c.primaryKey().references('ledgers.id').onDelete('cascade'))
    .addColumn('starting_balance_cents', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('ledger_forecasts').execute();
}
