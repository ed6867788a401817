import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Sign-in with an identity provider and API tokens (docs/decisions/0721-api-tokens.md,
 * docs/decisions/0722-openid-connect-sign-in.md):
 * - `users.has_password`: 0 for an account made through the provider, which has no password of its own;
 * - `user_identities`: the provider account (issuer + subject) an account is linked to, one per issuer;
 * - `sign_in_tickets`: the one-time ticket a provider sign-in ends in, stored hashed, for the web app to exchange;
 * - `api_tokens`: personal tokens, stored hashed, with a scope, an optional ledger and an optional expiry.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const idType = pg ? 'bigserial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());

  await db.schema
    .alterTable('users')
    .addColumn('has_password', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addUniqueConstraint('user_identities_subject', ['issuer', 'subject'])
    .addUniqueConstraint('user_identities_user', ['user_id', 'issuer'])
    .execute();

  await db.schema
    .createTable('sign_in_tickets')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('sign_in_tickets_expiry').on('sign_in_tickets').column('expires_at').execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    // A token bound to a ledger goes with it: it never falls back to another ledger.
    .addColumn('ledger_id', 'bigint', (c) => c.references('ledgers.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('api_tokens').ifExists().execute();
  await db.schema.dropTable('sign_in_tickets').ifExists().execute();
  await db.schema.dropTable('user_identities').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('has_password').execute();
}
