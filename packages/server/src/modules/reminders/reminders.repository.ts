import { Repository } from '../../db/repository.ts';

/** The reminder choice per user, and the per-day claims that make each digest go out once. */
export class RemindersRepository extends Repository {
  settings(userId: number) {
    return this.db.selectFrom('reminder_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async email(userId: number): Promise<{ email: string; verified: boolean }> {
    const row = await this.db
      .selectFrom('users')
      .select(['email', 'email_verified_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { email: row.email, verified: row.email_verified_at !== null };
  }

  async save(userId: number, daysAhead: number, at: number): Promise<void> {
    await this.db
      .insertInto('reminder_settings')
      .values({ user_id: userId, days_ahead: daysAhead, updated_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ days_ahead: daysAhead, updated_at: at }))
      .execute();
  }

  async remove(userId: number): Promise<void> {
    await this.db.deleteFrom('reminder_settings').where('user_id', '=', userId).execute();
  }

  /** Active accounts with reminders on, a verified address, and no digest claimed for `day` yet. */
  dueForDigest(day: string) {
    return this.db
      .selectFrom('reminder_settings as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('reminder_sends as r', (join) => join.onRef('r.user_id', '=', 's.user_id').on('r.day', '=', day))
      .select(['s.user_id', 's.days_ahead', 'u.email', 'u.username'])
      .where('u.deactivated_at', 'is', null)
      .where('u.email_verified_at', 'is not', null)
      .where('r.user_id', 'is', null)
      .orderBy('s.user_id')
      .execute();
  }

  /**
   * Active accounts with reminders on whose address is unverified and was never sent a link for: those made
   * before addresses were verified, whose digests have stopped (docs/decisions/1131-verified-addresses.md).
   */
  awaitingFirstLink() {
    return this.db
      .selectFrom('reminder_settings as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.username', 'u.email', 'u.email_key', 'u.email_verified_at'])
      .where('u.email_verified_at', 'is', null)
      .where('u.deactivated_at', 'is', null)
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

  /**
   * Claims the user's digest for `day`: true for exactly one caller however many processes try at once (the
   * primary key (user_id, day) lets one insert through; the others insert nothing).
   */
  async claim(userId: number, day: string, at: number): Promise<boolean> {
    const result = await this.db
      .insertInto('reminder_sends')
      .values({ user_id: userId, day, claimed_at: at, sent_at: null })
      .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async markSent(userId: number, day: string, at: number): Promise<void> {
    await this.db
      .updateTable('reminder_sends')
      .set({ sent_at: at })
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .execute();
  }

  /** Gives a claim back after a failed send, so the next run tries again. */
  async release(userId: number, day: string): Promise<void> {
    await this.db
      .deleteFrom('reminder_sends')
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .where('sent_at', 'is', null)
      .execute();
  }
}
