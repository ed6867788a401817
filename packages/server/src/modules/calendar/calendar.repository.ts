import { Repository } from '../../db/repository.ts';

/**
 * The feed tokens, stored as hashes: one address per user, replaced when regenerated. A feed is live only while
 * its account keeps the `token_version` it was made under: a password change or deactivation raises it in the
 * same transaction, so the feed ends with the sessions (docs/decisions/1002-calendar-feed.md).
 */
export class CalendarRepository extends Repository {
  /** The user's live feed, if any. */
  find(userId: number) {
    return this.db
      .selectFrom('calendar_feeds as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select(['f.user_id', 'f.created_at'])
      .where('f.user_id', '=', userId)
      .whereRef('f.token_version', '=', 'u.token_version')
      .executeTakeFirst();
  }

  /** The owner of a token hash, if the feed is live and the account active. */
  async ownerOf(tokenHash: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('calendar_feeds as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select('f.user_id')
      .where('f.token_hash', '=', tokenHash)
      .whereRef('f.token_version', '=', 'u.token_version')
      .where('u.deactivated_at', 'is', null)
      .executeTakeFirst();
    return row ? Number(row.user_id) : null;
  }

  /**
   * Replaces the user's token in one statement, so two regenerations at once leave exactly one address; the feed
   * takes the account's current token version.
   */
  async replace(userId: number, tokenHash: string, at: number, tokenVersion: number): Promise<void> {
    const row = { token_hash: tokenHash, created_at: at, token_version: tokenVersion };
    await this.db
      .insertInto('calendar_feeds')
      .values({ user_id: userId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
  }

  async remove(userId: number): Promise<void> {
    await this.db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
  }
}
