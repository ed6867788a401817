import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * The saved copy of each large ledger's index (docs/decisions/0407-saved-ledger-index.md): a process writes the
 * index to a file under its data directory and then the file's random token here, so a file is taken back only by
 * the database it was made from (a restored backup or another database under the same directory has another token,
 * or none). One row per ledger, gone with it.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('ledger_index_files')
    .addColumn('ledger_id', 'bigint', (c) => c.primaryKey().references('ledgers.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('saved_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('ledger_index_files').execute();
}
