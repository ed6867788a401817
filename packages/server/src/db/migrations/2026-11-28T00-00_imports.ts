import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * CSV imports (docs/decisions/0902-csv-import.md): one row per committed import, and on every invoice and entity
 * it wrote the import's id, so that one import can be undone as a unit.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());
  await db.schema
    .createTable('imports')
    .addColumn('id', pg ? 'bigserial' : 'integer', id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('invoice_count', 'integer', (c) => c.notNull())
    .addColumn('payment_count', 'integer', (c) => c.notNull())
    .addColumn('entity_count', 'integer', (c) => c.notNull())
    .addColumn('skipped_count', 'integer', (c) => c.notNull())
    .addColumn('undone_at', 'bigint')
    .execute();
  await db.schema.createIndex('imports_user').on('imports').columns(['user_id', 'id']).execute();
  for (const table of ['entries', 'bills']) {
    await db.schema.alterTable(table).addColumn('import_id', 'bigint').execute();
    await db.schema
      .createIndex(`${table}_import`)
      .on(table)
      .column('import_id')
      .where(sql.ref('import_id'), 'is not', null)
      .execute();
  }
}

export async function down(db: Db): Promise<void> {
  for (const table of ['entries', 'bills']) {
    await db.schema.dropIndex(`${table}_import`).ifExists().execute();
    await db.schema.alterTable(table).dropColumn('import_id').execute();
  }
  await db.schema.dropTable('imports').ifExists().execute();
}
