import { isSqlite } from '../../db/database.ts';
import { NotificationEvents } from '../../db/notification-events.ts';
import { Repository } from '../../db/repository.ts';
import type { NotificationChannelsTable } from '../../db/schema.ts';

type NewChannelRow = Omit<NotificationChannelsTable, 'id'>;

/** The statuses a sender may pick up: never tried, or failed and due again. */
const SENDABLE = ['pending', 'failed'];

/** Channels, the outbox's messages and their claims, and the server's VAPID keys. */
export class NotificationsRepository extends Repository {
  events(): NotificationEvents {
    return new NotificationEvents(this.db);
  }

  channels(userId: number) {
    return this.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  channel(userId: number, id: number) {
    return this.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  channelById(id: number) {
    return this.db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertChannel(row: NewChannelRow): Promise<number> {
    const inserted = await this.db
      .insertInto('notification_channels')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(inserted.id);
  }

  async updateChannel(id: number, change: Partial<NewChannelRow>): Promise<void> {
    await this.db.updateTable('notification_channels').set(change).where('id', '=', id).execute();
  }

  async deleteChannel(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('notification_channels')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async email(userId: number): Promise<{ email: string; verified: boolean; username: string }> {
    const row = await this.db
      .selectFrom('users')
      .select(['email', 'email_verified_at', 'username'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { email: row.email, verified: row.email_verified_at !== null, username: row.username };
  }

  /**
   * Claims up to `limit` messages due by `now` whose channel is not paused and which no live lease holds: one
   * UPDATE sets this sender's token and a lease, and answers the rows it changed. On PostgreSQL the candidates
   * are locked with SKIP LOCKED, so concurrent senders take disjoint rows without waiting; on SQLite the one
   * writer runs the statement whole. Either way a message has one holder until its lease ends
   * (docs/decisions/1150-notification-outbox.md). `onlyId` claims that message alone (the test button).
   */
  async claim(token: string, now: number, leaseMs: number, limit: number, onlyId?: number) {
    let candidates = this.db
      .selectFrom('notification_messages as m')
      .select('m.id')
      .where('m.status', 'in', SENDABLE)
      .where('m.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('m.lease_until', 'is', null), eb('m.lease_until', '<', now)]))
      .where('m.channel_id', 'in', (qb) =>
        qb.selectFrom('notification_channels').select('id').where('paused_at', 'is', null),
      )
      .orderBy('m.next_attempt_at')
      .orderBy('m.id')
      .limit(limit);
    if (onlyId !== undefined) candidates = candidates.where('m.id', '=', onlyId);
    if (!isSqlite(this.db)) candidates = candidates.forUpdate().skipLocked();
    return this.db
      .updateTable('notification_messages')
      .set({ claim_token: token, lease_until: now + leaseMs })
      .where('id', 'in', candidates)
      .returningAll()
      .execute();
  }

  /** Records the outcome of a claimed message; false when the claim was lost (its lease ran out and another took it). */
  async settle(
    id: number,
    token: string,
    outcome: {
      status: string;
      attempts: number;
      lastError: string | null;
      nextAttemptAt: number | null;
      sentAt: number | null;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('notification_messages')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        last_error: outcome.lastError,
        next_attempt_at: outcome.nextAttemptAt,
        sent_at: outcome.sentAt,
        claim_token: null,
        lease_until: null,
      })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A success: the channel is no longer failing. */
  async channelWorks(id: number): Promise<void> {
    await this.db
      .updateTable('notification_channels')
      .set({ failing_since: null })
      .where('id', '=', id)
      .where('failing_since', 'is not', null)
      .execute();
  }

  /** A failure: marks when the channel began failing (kept if set); answers that moment, or null when it is gone. */
  async channelFails(id: number, now: number): Promise<number | null> {
    await this.db
      .updateTable('notification_channels')
      .set({ failing_since: now })
      .where('id', '=', id)
      .where('failing_since', 'is', null)
      .execute();
    const row = await this.db
      .selectFrom('notification_channels')
      .select('failing_since')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.failing_since == null ? null : Number(row.failing_since);
  }

  /** Pauses the channel; the row when this call paused it, undefined when it was paused already (or is gone). */
  async pause(id: number, now: number) {
    const result = await this.db
      .updateTable('notification_channels')
      .set({ paused_at: now })
      .where('id', '=', id)
      .where('paused_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.channelById(id);
  }

  /** On a pause: what the channel still had to send gives up (it may be sent again from the log). */
  async giveUpChannel(channelId: number, reason: string): Promise<void> {
    await this.db
      .updateTable('notification_messages')
      .set({ status: 'gave_up', next_attempt_at: null, last_error: reason })
      .where('channel_id', '=', channelId)
      .where('status', 'in', SENDABLE)
      .where('claim_token', 'is', null)
      .execute();
  }

  deliveries(userId: number, limit: number, channelId?: number, messageId?: number) {
    let query = this.db
      .selectFrom('notification_messages as m')
      .innerJoin('notification_channels as c', 'c.id', 'm.channel_id')
      .select([
        'm.id',
        'm.channel_id',
        'c.name as channel_name',
        'c.kind as channel_kind',
        'm.event',
        'm.title',
        'm.status',
        'm.attempts',
        'm.last_error',
        'm.next_attempt_at',
        'm.created_at',
        'm.sent_at',
      ])
      .where('m.user_id', '=', userId)
      .orderBy('m.id', 'desc')
      .limit(limit);
    if (channelId !== undefined) query = query.where('m.channel_id', '=', channelId);
    if (messageId !== undefined) query = query.where('m.id', '=', messageId);
    return query.execute();
  }

  /** A given-up or failed message of the user's becomes due now; false when it is not one of those. */
  async sendAgain(userId: number, id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('notification_messages')
      .set({ status: 'pending', next_attempt_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('status', 'in', ['failed', 'gave_up'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The message queued for an event on a channel. */
  messageByKey(channelId: number, eventKey: string) {
    return this.db
      .selectFrom('notification_messages')
      .select('id')
      .where('channel_id', '=', channelId)
      .where('event_key', '=', eventKey)
      .executeTakeFirst();
  }

  messageOf(userId: number, id: number) {
    return this.db
      .selectFrom('notification_messages')
      .select(['id', 'status'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The pair named `name`, made by whichever process asks first (the insert that loses changes nothing). */
  async keyPair(name: string, make: () => { publicKey: string; privateKey: string }, now: number) {
    const found = await this.db.selectFrom('notification_keys').selectAll().where('name', '=', name).executeTakeFirst();
    if (found) return found;
    const pair = make();
    await this.db
      .insertInto('notification_keys')
      .values({ name, public_key: pair.publicKey, private_key: pair.privateKey, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return this.db.selectFrom('notification_keys').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  }

  /** Active channels that chose due-soon or overdue, with their owner. */
  dueChannels() {
    return this.db
      .selectFrom('notification_channels as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.user_id', 'c.events', 'c.days_ahead'])
      .where('c.paused_at', 'is', null)
      .where('u.deactivated_at', 'is', null)
      .where((eb) => eb.or([eb('c.events', 'like', '%,due_soon,%'), eb('c.events', 'like', '%,overdue,%')]))
      .orderBy('c.id')
      .execute();
  }

  /** Unpaid, live invoices of the user's ledgers falling due in [from, to]. */
  dueInvoices(userId: number, from: string, to: string) {
    return this.db
      .selectFrom('entries as e')
      .innerJoin('ledger_members as lm', (j) =>
        j.onRef('lm.ledger_id', '=', 'e.ledger_id').on('lm.user_id', '=', userId),
      )
      .innerJoin('ledgers as l', 'l.id', 'e.ledger_id')
      .select([
        'e.id',
        'e.ledger_id',
        'l.name as ledger_name',
        'e.invoice_number',
        'e.bill_name',
        'e.flow',
        'e.balance_cents',
        'e.due_date',
      ])
      .where('e.due_date', '>=', from)
      .where('e.due_date', '<=', to)
      .where('e.balance_cents', '>', 0)
      .where('e.recycled_at', 'is', null)
      .where('e.archived', '=', 0)
      .orderBy('e.due_date')
      .orderBy('e.id')
      .limit(500)
      .execute();
  }
}
