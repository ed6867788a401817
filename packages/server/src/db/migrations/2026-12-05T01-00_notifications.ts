import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

// Frozen in time: this file never imports application code and is never edited once released.

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed loosely on purpose
type Db = Kysely<any>;

/**
 * Notifications (docs/decisions/1150-notification-outbox.md): `notification_channels` holds where a user wants to
 * hear (email, webhook, ntfy, Gotify, web push) with its secret sealed; `notification_messages` is the durable
 * outbox, one row per event and channel (unique), claimed by a sender with a lease; `notification_keys` holds the
 * server's VAPID key pair for web push.
 */
export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (col: ColumnDefinitionBuilder) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement());
  await db.schema
    .createTable('notification_channels')
    .addColumn('id', pg ? 'bigserial' : 'integer', id)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('secret', 'text')
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('days_ahead', 'integer', (c) => c.notNull())
    .addColumn('failing_since', 'bigint')
    .addColumn('paused_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notification_channels_user').on('notification_channels').column('user_id').execute();
  await db.schema
    .createTable('notification_messages')
    .addColumn('id', pg ? 'bigserial' : 'integer', id)
    .addColumn('channel_id', 'bigint', (c) => c.notNull().references('notification_channels.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addUniqueConstraint('notification_messages_event_channel', ['channel_id', 'event_key'])
    .execute();
  await db.schema
    .createIndex('notification_messages_due')
    .on('notification_messages')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('notification_messages_user')
    .on('notification_messages')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createTable('notification_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('notification_keys').execute();
  await db.schema.dropTable('notification_messages').execute();
  await db.schema.dropTable('notification_channels').execute();
}
