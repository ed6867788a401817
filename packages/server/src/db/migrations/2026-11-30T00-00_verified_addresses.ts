import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Verified addresses (docs/decisions/1131-verified-addresses.md) and a calendar feed that a password change or
 * deactivation ends (docs/decisions/1002-calendar-feed.md):
 * - `users.email_verified_at`: when the account's current address was proven; every existing address starts
 *   unverified (null), since nothing ever proved it;
 * - `email_verifications`: the links sent, one hashed single-use token each, for the address it was sent to;
 * - `calendar_feeds.token_version`: the account's token version when the feed was made; the feed answers only
 *   while the account still has it. Existing feeds take their account's current version, so they keep working.
 */
export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'bigserial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());

  await db.schema.alterTable('users').addColumn('email_verified_at', 'bigint').execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('email_verifications_user').on('email_verifications').column('user_id').execute();

  await db.schema
    .alterTable('calendar_feeds')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update calendar_feeds set token_version =
    (select u.token_version from users u where u.id = calendar_feeds.user_id)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('calendar_feeds').dropColumn('token_version').execute();
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
