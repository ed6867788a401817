import { sql } from 'kysely';
import { NotificationEvents } from '../../db/notification-events.ts';
import { Repository } from '../../db/repository.ts';

/** The event key of a channel's digest for a UTC day: one outbox message per channel and day. */
export const digestKey = (day: string) => `digest:${day}`;
const DIGEST = '%,digest,%';

/**
 * The reminder choice, kept as email notification channels hearing `digest`
 * (docs/decisions/1154-reminder-digest-channel.md), and the accounts whose digest is due.
 */
export class RemindersRepository extends Repository {
  events(): NotificationEvents {
    return new NotificationEvents(this.db);
  }

  /** The user's first email channel hearing the digest: its days ahead are the reminder settings'. */
  digestChannel(userId: number) {
    return this.db
      .selectFrom('notification_channels')
      .select(['id', 'days_ahead'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'email')
      .where('events', 'like', DIGEST)
      .orderBy('id')
      .executeTakeFirst();
  }

  async email(userId: number): Promise<{ email: string; verified: boolean }> {
    const row = await this.db
      .selectFrom('users')
      .select(['email', 'email_verified_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { email: row.email, verified: row.email_verified_at !== null };
  }

  async setDays(channelId: number, daysAhead: number, at: number): Promise<void> {
    await this.db
      .updateTable('notification_channels')
      .set({ days_ahead: daysAhead, updated_at: at })
      .where('id', '=', channelId)
      .execute();
  }

  /** A new email channel hearing the digest alone. */
  async addDigestChannel(userId: number, name: string, daysAhead: number, at: number): Promise<void> {
    await this.db
      .insertInto('notification_channels')
      .values({
        user_id: userId,
        kind: 'email',
        name,
        url: null,
        secret: null,
        events: ',digest,',
        days_ahead: daysAhead,
        failing_since: null,
        paused_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  /** Reminders off: no email channel of the user hears the digest; one that heard nothing else goes. */
  async dropDigest(userId: number, at: number): Promise<void> {
    await this.db
      .updateTable('notification_channels')
      .set({ events: sql<string>`replace(events, ',digest,', ',')`, updated_at: at })
      .where('user_id', '=', userId)
      .where('kind', '=', 'email')
      .where('events', 'like', DIGEST)
      .execute();
    await this.db
      .deleteFrom('notification_channels')
      .where('user_id', '=', userId)
      .where('kind', '=', 'email')
      .where('events', '=', ',')
      .execute();
  }

  /**
   * Active email channels hearing the digest, not paused, of active accounts with a verified address, with no
   * digest queued for `day` yet.
   */
  dueForDigest(day: string) {
    return this.db
      .selectFrom('notification_channels as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.user_id', 'c.days_ahead', 'u.username'])
      .where('c.kind', '=', 'email')
      .where('c.events', 'like', DIGEST)
      .where('c.paused_at', 'is', null)
      .where('u.deactivated_at', 'is', null)
      .where('u.email_verified_at', 'is not', null)
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('notification_messages as m')
              .select('m.id')
              .whereRef('m.channel_id', '=', 'c.id')
              .where('m.event_key', '=', digestKey(day)),
          ),
        ),
      )
      .orderBy('c.id')
      .execute();
  }

  /**
   * Active accounts with reminders on whose address is unverified and was never sent a link for: those made
   * before addresses were verified, whose digests have stopped (docs/decisions/1131-verified-addresses.md).
   */
  awaitingFirstLink() {
    return this.db
      .selectFrom('users as u')
      .select(['u.id', 'u.username', 'u.email', 'u.email_key', 'u.email_verified_at'])
      .where('u.email_verified_at', 'is', null)
      .where('u.deactivated_at', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('notification_channels as c')
            .select('c.id')
            .whereRef('c.user_id', '=', 'u.id')
            .where('c.kind', '=', 'email')
            .where('c.events', 'like', DIGEST),
        ),
      )
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('email_verifications as v')
              .select('v.id')
              .whereRef('v.user_id', '=', 'u.id')
              .whereRef('v.email_key', '=', 'u.email_key'),
          ),
        ),
      )
      .orderBy('u.id')
      .execute();
  }
}
