import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * A category filter sorted by balance or amount (the filter panel's usual view of one kind of bill) pages by
 * walking one of these in order, reading only the rows it shows, instead of reading every row of the category
 * in the date range and sorting them (docs/decisions/0402-category-sorts.md).
 */
const INDEXES = [
  { name: 'entries_live_category_balance', column: 'balance_cents' },
  { name: 'entries_live_category_amount', column: 'amount_cents' },
];

export async function up(db: Db): Promise<void> {
  for (const { name, column } of INDEXES) {
    await db.schema
      .createIndex(name)
      .on('entries')
      .columns(['user_id', 'category', column, 'invoice_number'])
      .where(sql.ref('recycled_at'), 'is', null)
      .execute();
  }
}

export async function down(db: Db): Promise<void> {
  for (const { name } of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
