import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Categories of a user's own (docs/decisions/0105-categories-of-your-own.md), beside the 21 built-in ones that
 * need no row. Entities and invoices keep naming their category by its name (`bills.category`,
 * `entries.category`); this table says which names the user made, for which flow, and which are retired.
 * `name_key` (lower case, one space between words) is unique per owner, so "Salary" and " salary " are one name.
 * The owner is one column (`user_id`), so handing categories to another owner later changes that column only.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const idType = pg ? 'bigserial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());
  await db.schema
    .createTable('categories')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('categories_name_once', ['user_id', 'name_key'])
    .execute();
  // A rename rewrites the entities that carry the old name: found by owner and category, not by a scan.
  await db.schema.createIndex('bills_user_category').on('bills').columns(['user_id', 'category']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('bills_user_category').ifExists().execute();
  await db.schema.dropTable('categories').ifExists().execute();
}
