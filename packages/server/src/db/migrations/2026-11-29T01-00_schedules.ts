import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Recurring invoices (docs/decisions/1010-recurring-invoices.md). `schedules` holds each rule and its cursor
 * (`next_date`, the next occurrence to create; null once it has ended). `schedule_occurrences` is the claim of one
 * occurrence, written in the transaction that creates its invoice: its unique key (schedule, date) makes every
 * occurrence happen once however many processes run the job. `autopay_date` is set while the occurrence's
 * automatic payment is still to be recorded.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const idType = pg ? 'bigserial' : 'integer';
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());
  await db.schema
    .createTable('schedules')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bill_id', 'bigint', (c) => c.notNull().references('bills.id').onDelete('cascade'))
    .addColumn('cadence', 'text', (c) => c.notNull())
    .addColumn('interval', 'integer', (c) => c.notNull())
    .addColumn('day_of_month', 'integer')
    .addColumn('first_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('max_count', 'integer')
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('due_days', 'integer', (c) => c.notNull())
    .addColumn('autopay_method', 'text')
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_date', 'text')
    .addColumn('created_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_bill').on('schedules').columns(['bill_id', 'id']).execute();
  await db.schema
    .createIndex('schedules_due')
    .on('schedules')
    .column('next_date')
    .where(sql.ref('next_date'), 'is not', null)
    .execute();

  await db.schema
    .createTable('schedule_occurrences')
    .addColumn('id', idType, id)
    .addColumn('schedule_id', 'bigint', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('occurrence_date', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'bigint', (c) => c.references('entries.id').onDelete('set null'))
    .addColumn('autopay_date', 'text')
    .addColumn('payment_id', 'bigint', (c) => c.references('payments.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('schedule_occurrences_once', ['schedule_id', 'occurrence_date'])
    .execute();
  // Purging invoices and payments sets these to null: indexed, so the purge finds the claims without a scan.
  await db.schema.createIndex('schedule_occurrences_entry').on('schedule_occurrences').column('entry_id').execute();
  await db.schema.createIndex('schedule_occurrences_payment').on('schedule_occurrences').column('payment_id').execute();
  await db.schema
    .createIndex('schedule_occurrences_autopay')
    .on('schedule_occurrences')
    .column('autopay_date')
    .where(sql.ref('autopay_date'), 'is not', null)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('schedule_occurrences').ifExists().execute();
  await db.schema.dropTable('schedules').ifExists().execute();
}
