import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * The private calendar feed and the e-mail reminders (docs/decisions/1002-calendar-feed.md,
 * 1003-email-reminders.md): a user's feed token, stored as its hash; the reminder choice; and one row per user and
 * day a digest was claimed, whose primary key makes the claim exactly-once across processes.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reminder_settings')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('days_ahead', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('reminder_sends')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addPrimaryKeyConstraint('reminder_sends_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('reminder_sends').ifExists().execute();
  await db.schema.dropTable('reminder_settings').ifExists().execute();
  await db.schema.dropTable('calendar_feeds').ifExists().execute();
}
