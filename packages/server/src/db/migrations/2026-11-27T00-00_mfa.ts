import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Two-factor sign-in (docs/decisions/0720-two-factor-sign-in.md): the TOTP secret (encrypted) and the one
 * being set up, the last time step whose code was accepted (so no code works twice), hashed one-time recovery
 * codes, and the short-lived challenges between the password step and the code step of a sign-in.
 */
export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'bigserial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());

  await db.schema.alterTable('users').addColumn('mfa_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('mfa_pending_secret', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('mfa_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mfa_recovery_codes_user')
    .on('mfa_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('mfa_challenges')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('mfa_challenges_user').on('mfa_challenges').column('user_id').execute();
  await db.schema.createIndex('mfa_challenges_expiry').on('mfa_challenges').column('expires_at').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('mfa_challenges').execute();
  await db.schema.dropTable('mfa_recovery_codes').execute();
  await db.schema.alterTable('users').dropColumn('mfa_last_step').execute();
  await db.schema.alterTable('users').dropColumn('mfa_pending_secret').execute();
  await db.schema.alterTable('users').dropColumn('mfa_secret').execute();
}
