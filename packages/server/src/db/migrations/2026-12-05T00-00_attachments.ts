import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Attachments (docs/decisions/1140-attachment-storage.md): one row per file attached to an invoice or a payment of a
 * ledger. The bytes live in the file store under `file_key` (their SHA-256), shared by every row with the same
 * bytes. A row goes with its invoice or payment (foreign-key cascade) when the recycle bin is purged.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());
  await db.schema
    .createTable('attachments')
    .addColumn('id', pg ? 'bigserial' : 'integer', id)
    .addColumn('ledger_id', 'bigint', (c) => c.notNull().references('ledgers.id').onDelete('cascade'))
    .addColumn('entry_id', 'bigint', (c) => c.references('entries.id').onDelete('cascade'))
    .addColumn('payment_id', 'bigint', (c) => c.references('payments.id').onDelete('cascade'))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('attachments_one_owner', sql`(entry_id is null) <> (payment_id is null)`)
    .execute();
  await db.schema.createIndex('attachments_entry').on('attachments').column('entry_id').execute();
  await db.schema.createIndex('attachments_payment').on('attachments').column('payment_id').execute();
  await db.schema.createIndex('attachments_ledger').on('attachments').column('ledger_id').execute();
  await db.schema.createIndex('attachments_file_key').on('attachments').column('file_key').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('attachments').execute();
}
