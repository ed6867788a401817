import { Repository } from '../../db/repository.ts';

/** The feed tokens, stored as hashes: one address per user, replaced when regenerated. */
export class CalendarRepository extends Repository {
  find(userId: number) {
    return this.db.selectFrom('calendar_feeds').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** The owner of a token hash, if the feed is on and the account active. */
  async ownerOf(tokenHash: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('calendar_feeds as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select('f.user_id')
      .where('f.token_hash', '=', tokenHash)
      .where('u.deactivated_at', 'is', null)
      .executeTakeFirst();
    return row ? Number(row.user_id) : null;
  }

  /** Replaces the user's token in one statement, so two regenerations at once leave exactly one address. */
  async replace(userId: number, tokenHash: string, at: number): Promise<void> {
    await this.db
      .insertInto('calendar_feeds')
      .values({ user_id: userId, token_hash: tokenHash, created_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ token_hash: tokenHash, created_at: at }))
      .execute();
  }

  async remove(userId: number): Promise<void> {
    await this.db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
  }
}
