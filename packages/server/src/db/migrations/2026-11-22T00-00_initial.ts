import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  const idType = pg ? 'bigserial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());

  await db.schema
    .createTable('users')
    .addColumn('id', idType, id)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('ROLE_USER'))
    .addColumn('mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login', 'bigint')
    .addColumn('deactivated_at', 'bigint')
    .addColumn('last_invoice_number', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('users_deactivated').on('users').column('deactivated_at').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_expiry').on('refresh_tokens').column('expires_at').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', idType, id)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_key_at').on('login_failures').columns(['key', 'at']).execute();
  await db.schema.createIndex('login_failures_at').on('login_failures').column('at').execute();

  await db.schema
    .createTable('bills')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('recycled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // One live entity per name and user, case-insensitively; recycled ones may share a name.
  await db.schema
    .createIndex('bills_user_name_live')
    .on('bills')
    .columns(['user_id', 'name_key'])
    .unique()
    .where(sql.ref('recycled_at'), 'is', null)
    .execute();
  await db.schema.createIndex('bills_user_name').on('bills').columns(['user_id', 'name_key', 'id']).execute();
  // Only deleted rows: the recycle bin and the purge read them; live rows (the vast majority, all NULL) are left
  // out so the index stays small and a planner with statistics never mistakes it for a way to find live rows.
  const recycledIndex = (name: string, table: string) =>
    db.schema.createIndex(name).on(table).column('recycled_at').where(sql.ref('recycled_at'), 'is not', null).execute();
  await recycledIndex('bills_recycled', 'bills');

  await db.schema
    .createTable('entries')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bill_id', 'bigint', (c) => c.notNull().references('bills.id').onDelete('cascade'))
    .addColumn('invoice_number', 'bigint', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('services', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('paid_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('balance_cents', 'bigint', (c) => c.notNull())
    .addColumn('pay_state', 'integer', (c) => c.notNull())
    .addColumn('payment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bill_name', 'text', (c) => c.notNull())
    .addColumn('bill_name_key', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('internal', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull())
    .addColumn('recycled_at', 'bigint')
    .addColumn('recycled_cascade', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('entries_user_number')
    .on('entries')
    .columns(['user_id', 'invoice_number'])
    .unique()
    .execute();
  await db.schema.createIndex('entries_bill').on('entries').columns(['bill_id', 'recycled_at']).execute();
  await recycledIndex('entries_recycled', 'entries');
  // One index per sort field over live rows, each ending in the unique tie-breaker, so every page is an index walk.
  const live = (name: string, columns: string[]) =>
    db.schema
      .createIndex(name)
      .on('entries')
      .columns(['user_id', ...columns, 'invoice_number'])
      .where(sql.ref('recycled_at'), 'is', null)
      .execute();
  await live('entries_live_date', ['date']);
  await live('entries_live_amount', ['amount_cents']);
  await live('entries_live_balance', ['balance_cents']);
  await live('entries_live_status', ['pay_state']);
  await live('entries_live_name', ['bill_name_key']);
  await live('entries_live_category', ['category']);
  await live('entries_live_flow', ['flow']);
  await live('entries_live_services', ['services']);
  await live('entries_live_internal', ['internal']);
  await live('entries_live_archived', ['archived']);
  await live('entries_live_bill_date', ['bill_id', 'date']);
  // The filter panel's usual shape, categories and a date range (plus paid and archive state): only the
  // matching rows are read, whatever the sort (docs/performance.md).
  await db.schema
    .createIndex('entries_live_category_date')
    .on('entries')
    .columns(['user_id', 'category', 'date', 'pay_state', 'archived'])
    .where(sql.ref('recycled_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('entry_id', 'bigint', (c) => c.notNull().references('entries.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('medium', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('autopay', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recycled_at', 'bigint')
    .addColumn('recycled_cascade', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_entry').on('payments').columns(['entry_id', 'recycled_at', 'date']).execute();
  await db.schema.createIndex('payments_user_recycled').on('payments').columns(['user_id', 'recycled_at']).execute();
  await recycledIndex('payments_recycled', 'payments');
}

export async function down(db: Db): Promise<void> {
  for (const table of ['payments', 'entries', 'bills', 'login_failures', 'refresh_tokens', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
