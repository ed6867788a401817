import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Due dates (docs/decisions/1000-due-dates.md): an optional `due_date` on each invoice; `due_sort`, the due date
 * with "no due date" written as the last day there is, so that the Due sort is one index walk in both orders on
 * both databases (an invoice without a due date counts as due after every dated one); and over live unpaid
 * invoices with a due date, the index the due filters, the Home panel, the calendar feed and the reminders read
 * as one range.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('entries').addColumn('due_date', 'text').execute();
  // SQLite adds only virtual generated columns to an existing table; PostgreSQL has only stored ones.
  await db.schema
    .alterTable('entries')
    .addColumn('due_sort', 'text', (c) => {
      const generated = c.generatedAlwaysAs(sql`coalesce(due_date, '9999-12-31')`);
      return pg ? generated.stored() : generated;
    })
    .execute();
  await db.schema
    .createIndex('entries_live_due')
    .on('entries')
    .columns(['user_id', 'due_sort', 'invoice_number'])
    .where(sql.ref('recycled_at'), 'is', null)
    .execute();
  // pay_state 2 and 3 are paid and overpaid. The columns after the invoice number make it covering for the
  // summary's counts and sums (archived, flow, what is still owed; SQLite also wants the columns of the index's
  // own condition), so those never visit the table.
  await db.schema
    .createIndex('entries_live_unpaid_due')
    .on('entries')
    .columns(['user_id', 'due_date', 'invoice_number', 'archived', 'flow', 'balance_cents', 'pay_state', 'recycled_at'])
    .where(sql<boolean>`recycled_at is null and due_date is not null and pay_state < 2`)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('entries_live_unpaid_due').ifExists().execute();
  await db.schema.dropIndex('entries_live_due').ifExists().execute();
  await db.schema.alterTable('entries').dropColumn('due_sort').execute();
  await db.schema.alterTable('entries').dropColumn('due_date').execute();
}
