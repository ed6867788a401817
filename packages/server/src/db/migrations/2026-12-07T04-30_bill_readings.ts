import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Readings of bills in the database (docs/decisions/1165-readings-in-the-database.md), so that any server process
 * answers for a reading another one took: one row per reading, keyed by its random id, with its state (`reading`,
 * `done`, `failed`), progress in hundredths, the result as JSON, the time by which an unfinished one counts as
 * failed (`deadline_at`: the process reading it stopped) and the time it is forgotten (`expires_at`). A reading
 * goes with its ledger or its user.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('bill_readings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ledger_id', 'bigint', (c) => c.notNull().references('ledgers.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deadline_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bill_readings_ledger').on('bill_readings').columns(['ledger_id', 'state']).execute();
  await db.schema.createIndex('bill_readings_user').on('bill_readings').column('user_id').execute();
  await db.schema.createIndex('bill_readings_expires').on('bill_readings').column('expires_at').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('bill_readings').execute();
}
