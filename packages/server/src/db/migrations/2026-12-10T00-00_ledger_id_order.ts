import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Ledger indexes of many ledgers (docs/decisions/0405-ledger-index.md, 0407-saved-ledger-index.md):
 * - a ledger's invoices and payments in id order, as its index reads them when it loads: a range of these indexes
 *   whatever the ledger's share of the table. Without them a load walked the whole table by id and kept the
 *   ledger's rows, so 5,000 invoices among 1,000,000 took as long as the 1,000,000 (0.6–2.6 s on PostgreSQL);
 * - `ledger_index_files` gets a row per ledger and saved folder (`holder`, the random name the folder keeps in
 *   its `holder` file), so that processes with folders of their own each take back their own copies. The old rows
 *   name copies whose layout this migration retires, so the table is made anew.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.createIndex('entries_ledger_id').on('entries').columns(['ledger_id', 'id']).execute();
  await db.schema.createIndex('payments_ledger_id').on('payments').columns(['ledger_id', 'id']).execute();
  await db.schema.dropTable('ledger_index_files').execute();
  await db.schema
    .createTable('ledger_index_files')
    .addColumn('ledger_id', 'bigint', (c) => c.notNull().references('ledgers.id').onDelete('cascade'))
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('saved_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_index_files_pkey', ['ledger_id', 'holder'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('ledger_index_files').execute();
  await db.schema
    .createTable('ledger_index_files')
    .addColumn('ledger_id', 'bigint', (c) => c.primaryKey().references('ledgers.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('saved_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.dropIndex('payments_ledger_id').execute();
  await db.schema.dropIndex('entries_ledger_id').execute();
}
