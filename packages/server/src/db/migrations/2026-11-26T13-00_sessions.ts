import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * `users.token_version` is written into every access token the user is issued; a password change or a
 * deactivation increments it, so every access token issued before stops working at the next request
 * (docs/decisions/0703-refresh-reuse-and-instant-revocation.md).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('users').dropColumn('token_version').execute();
}
