import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Estimated and actual amounts (docs/decisions/0212-estimated-amounts.md): a schedule's `amount_mode` (`fixed`,
 * `last` or `average`) and, for `average`, how many invoices it averages (`amount_of`); an invoice's
 * `estimate_cents` (what its schedule estimated, null for invoices no schedule created) and `estimated` (1 until
 * the amount is confirmed).
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('schedules')
    .addColumn('amount_mode', 'text', (c) => c.notNull().defaultTo('fixed'))
    .execute();
  await db.schema.alterTable('schedules').addColumn('amount_of', 'integer').execute();
  await db.schema.alterTable('entries').addColumn('estimate_cents', 'bigint').execute();
  await db.schema
    .alterTable('entries')
    .addColumn('estimated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('entries').dropColumn('estimated').execute();
  await db.schema.alterTable('entries').dropColumn('estimate_cents').execute();
  await db.schema.alterTable('schedules').dropColumn('amount_of').execute();
  await db.schema.alterTable('schedules').dropColumn('amount_mode').execute();
}
