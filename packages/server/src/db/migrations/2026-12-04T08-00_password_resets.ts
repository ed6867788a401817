import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Password links (docs/decisions/0723-password-reset.md): `password_resets` holds the links sent, one hashed
 * single-use token each, for the account's address at the time (a changed address ends them).
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());
  await db.schema
    .createTable('password_resets')
    .addColumn('id', pg ? 'bigserial' : 'integer', id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('password_resets').execute();
}
