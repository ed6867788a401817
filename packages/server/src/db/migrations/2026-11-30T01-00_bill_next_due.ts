import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * The Entities page's next due date per entity (docs/decisions/0406-entity-overview.md): over live unpaid
 * invoices with a due date (pay_state 2 and 3 are paid and overpaid), by entity then due date, so that the
 * earliest one of an entity is one seek on both databases, whatever the size of its ledger.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createIndex('entries_live_unpaid_bill_due')
    .on('entries')
    .columns(['bill_id', 'due_date'])
    .where(sql<boolean>`recycled_at is null and due_date is not null and pay_state < 2`)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('entries_live_unpaid_bill_due').ifExists().execute();
}
