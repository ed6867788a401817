import { Repository } from './repository.ts';

/** The message of something users may hear about, rendered once when it happens (docs/decisions/1150-notification-outbox.md). */
export interface NotificationEventRecord {
  /** Unique per event: with the channel, the outbox row's unique key, so an event is queued once per channel. */
  key: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

/** Whose channels hear it: the members of a ledger (but `except`), or given users. Kinds: the contract's
 * `NOTIFICATION_EVENTS`, and `test` and `channel_paused`, which no channel chooses (they name their channels). */
export type Audience = { ledgerId: number; except?: number } | { userIds: number[] };

/**
 * Writes an event into the outbox, one message per active channel of the audience that chose it: in the caller's
 * transaction (the schedule runner's, an import's, an invitation's), so the message exists exactly when the change
 * that caused it does. A message already queued for the same event and channel is kept as it is.
 */
export class NotificationEvents extends Repository {
  /**
   * `event` is the kind (to find the channels that chose it); `render` builds the message, called only when some
   * channel will get it, so an event nobody listens to costs one query.
   */
  async record(
    audience: Audience,
    event: string,
    render: () => NotificationEventRecord | Promise<NotificationEventRecord>,
    now: number,
    channelIds?: number[],
  ): Promise<number> {
    let query = this.db
      .selectFrom('notification_channels as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.user_id'])
      .where('c.paused_at', 'is', null)
      .where('u.deactivated_at', 'is', null);
    if (channelIds) query = query.where('c.id', 'in', channelIds.length > 0 ? channelIds : [0]);
    else query = query.where('c.events', 'like', `%,${event},%`);
    if ('ledgerId' in audience) {
      query = query.where('c.user_id', 'in', (qb) =>
        qb
          .selectFrom('ledger_members')
          .select('user_id')
          .where('ledger_id', '=', audience.ledgerId)
          .where('user_id', '!=', audience.except ?? 0),
      );
    } else {
      query = query.where('c.user_id', 'in', audience.userIds.length > 0 ? audience.userIds : [0]);
    }
    const channels = await query.orderBy('c.id').execute();
    if (channels.length === 0) return 0;
    const e = await render();
    const data = JSON.stringify(e.data);
    const result = await this.db
      .insertInto('notification_messages')
      .values(
        channels.map((c) => ({
          channel_id: Number(c.id),
          user_id: Number(c.user_id),
          event_key: e.key,
          event,
          title: e.title,
          body: e.body,
          data,
          status: 'pending',
          attempts: 0,
          last_error: null,
          next_attempt_at: now,
          claim_token: null,
          lease_until: null,
          created_at: now,
          sent_at: null,
        })),
      )
      .onConflict((oc) => oc.columns(['channel_id', 'event_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /** How many channels the user has (at most `MAX_CHANNELS` of the contract). */
  async countChannels(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('notification_channels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A user's name, for the text of events they caused; null for none (a job). */
  async username(userId: number | null): Promise<string | null> {
    if (userId === null) return null;
    const row = await this.db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
    return row?.username ?? null;
  }

  /** The ledger's name, for the text of its events. */
  async ledgerName(ledgerId: number): Promise<string> {
    const row = await this.db.selectFrom('ledgers').select('name').where('id', '=', ledgerId).executeTakeFirst();
    return row?.name ?? '';
  }
}
