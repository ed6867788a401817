import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Ledgers, the unit people share (docs/decisions/0107-ledgers.md), their members and invitations, and the
 * change history of invoices, payments and entities (docs/decisions/0108-change-history.md):
 * - `ledgers`: one per household book; `personal_user_id` marks a user's personal ledger (one each, made at
 *   sign-up; here for every existing user, named "Personal", taking over the user's invoice number counter);
 * - `ledger_members`: who may use a ledger, and as what (`owner`, `editor`, `viewer`);
 * - `ledger_invitations`: single-use links, their token stored hashed, for a role, until they expire;
 * - `entry_history`, `payment_history`, `bill_history`: one row per write of an item, who made it and each
 *   field from and to (JSON); they go with their item (foreign keys), so a purge or a deleted ledger leaves none.
 * The data itself moves into the personal ledgers in the next migration.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const idType = pg ? 'bigserial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());

  await db.schema
    .createTable('ledgers')
    .addColumn('id', idType, id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('personal_user_id', 'bigint', (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_invoice_number', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('ledger_members')
    .addColumn('ledger_id', 'bigint', (c) => c.notNull().references('ledgers.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_members_pk', ['ledger_id', 'user_id'])
    .execute();
  await db.schema.createIndex('ledger_members_user').on('ledger_members').column('user_id').execute();

  await db.schema
    .createTable('ledger_invitations')
    .addColumn('id', idType, id)
    .addColumn('ledger_id', 'bigint', (c) => c.notNull().references('ledgers.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_by', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('accepted_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('ledger_invitations_ledger').on('ledger_invitations').column('ledger_id').execute();

  for (const [table, item, parent] of [
    ['entry_history', 'entry_id', 'entries.id'],
    ['payment_history', 'payment_id', 'payments.id'],
    ['bill_history', 'bill_id', 'bills.id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('id', idType, id)
      .addColumn(item, 'bigint', (c) => c.notNull().references(parent).onDelete('cascade'))
      .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex(`${table}_item`).on(table).columns([item, 'id']).execute();
  }

  await sql`insert into ledgers (name, personal_user_id, created_at, last_invoice_number)
    select 'Personal', id, created_at, last_invoice_number from users order by id`.execute(db);
  await sql`insert into ledger_members (ledger_id, user_id, role, joined_at)
    select id, personal_user_id, 'owner', created_at from ledgers`.execute(db);
}

export async function down(db: Db): Promise<void> {
  for (const table of ['bill_history', 'payment_history', 'entry_history', 'ledger_invitations', 'ledger_members'])
    await db.schema.dropTable(table).ifExists().execute();
  await db.schema.dropTable('ledgers').ifExists().execute();
}
