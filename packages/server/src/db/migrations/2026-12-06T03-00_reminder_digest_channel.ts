import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * The daily reminder digest becomes an email notification channel's event (docs/decisions/1154-reminder-digest-channel.md):
 * each user's reminder choice (`reminder_settings`) becomes an email channel named "Daily digest" hearing `digest`
 * with the same days ahead, and each day's digest claim (`reminder_sends`) a `digest:<day>` message of that channel
 * (sent, or given up when it was claimed but never marked sent), so no day already mailed is mailed again. Then the
 * two reminder tables go.
 */
export async function up(db: Db): Promise<void> {
  await db
    .insertInto('notification_channels')
    .columns([
      'user_id',
      'kind',
      'name',
      'url',
      'secret',
      'events',
      'days_ahead',
      'failing_since',
      'paused_at',
      'created_at',
      'updated_at',
    ])
    .expression(
      db
        .selectFrom('reminder_settings')
        .select([
          'user_id',
          sql.lit('email').as('kind'),
          sql.lit('Daily digest').as('name'),
          sql.lit(null).as('url'),
          sql.lit(null).as('secret'),
          sql.lit(',digest,').as('events'),
          'days_ahead',
          sql.lit(null).as('failing_since'),
          sql.lit(null).as('paused_at'),
          'updated_at as created_at',
          'updated_at',
        ])
        .orderBy('user_id'),
    )
    .execute();
  await db
    .insertInto('notification_messages')
    .columns([
      'channel_id',
      'user_id',
      'event_key',
      'event',
      'title',
      'body',
      'data',
      'status',
      'attempts',
      'last_error',
      'next_attempt_at',
      'claim_token',
      'lease_until',
      'created_at',
      'sent_at',
    ])
    .expression(
      db
        .selectFrom('reminder_sends as r')
        .innerJoin('notification_channels as c', (j) =>
          j.onRef('c.user_id', '=', 'r.user_id').on('c.kind', '=', 'email').on('c.events', '=', ',digest,'),
        )
        .select([
          'c.id as channel_id',
          'r.user_id',
          sql<string>`'digest:' || r.day`.as('event_key'),
          sql.lit('digest').as('event'),
          sql<string>`'Daily digest of ' || r.day`.as('title'),
          sql.lit('').as('body'),
          sql.lit('{}').as('data'),
          sql<string>`case when r.sent_at is null then 'gave_up' else 'sent' end`.as('status'),
          sql.lit(1).as('attempts'),
          sql<
            string | null
          >`case when r.sent_at is null then 'claimed before the digest joined the outbox, never marked sent' else null end`.as(
            'last_error',
          ),
          sql.lit(null).as('next_attempt_at'),
          sql.lit(null).as('claim_token'),
          sql.lit(null).as('lease_until'),
          'r.claimed_at as created_at',
          'r.sent_at',
        ])
        .orderBy('r.user_id')
        .orderBy('r.day'),
    )
    .execute();
  await db.schema.dropTable('reminder_sends').execute();
  await db.schema.dropTable('reminder_settings').execute();
}

export async function down(db: Db): Promise<void> {
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
  await db
    .insertInto('reminder_settings')
    .columns(['user_id', 'days_ahead', 'updated_at'])
    .expression(
      db
        .selectFrom('notification_channels')
        .select([
          'user_id',
          (eb) => eb.fn.min('days_ahead').as('days_ahead'),
          (eb) => eb.fn.max('updated_at').as('updated_at'),
        ])
        .where('kind', '=', 'email')
        .where('events', 'like', '%,digest,%')
        .groupBy('user_id'),
    )
    .execute();
  await db.deleteFrom('notification_channels').where('kind', '=', 'email').where('events', '=', ',digest,').execute();
  await db
    .updateTable('notification_channels')
    .set({ events: sql`replace(events, ',digest,', ',')` })
    .where('events', 'like', '%,digest,%')
    .execute();
}
