import { findMailedLink, spendMailedLink } from '../../db/mailed-links.ts';
import { Repository } from '../../db/repository.ts';

/** The verification links sent (hashed tokens) and the account's verified state. */
export class EmailVerificationRepository extends Repository {
  user(userId: number) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'email_key', 'email_verified_at', 'deactivated_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  userByEmail(emailKey: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'email_key', 'email_verified_at', 'deactivated_at'])
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
  }

  async insert(link: {
    user_id: number;
    token_hash: string;
    email_key: string;
    created_at: number;
    expires_at: number;
  }) {
    await this.db.insertInto('email_verifications').values(link).execute();
  }

  /** When the latest link for the user's `emailKey` was sent. */
  async lastSent(userId: number, emailKey: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('email_verifications')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('user_id', '=', userId)
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    return row?.at == null ? null : Number(row.at);
  }

  /** Links of other addresses than the current one can never verify anything: they go. */
  async removeOtherAddresses(userId: number, emailKey: string): Promise<void> {
    await this.db
      .deleteFrom('email_verifications')
      .where('user_id', '=', userId)
      .where('email_key', '!=', emailKey)
      .execute();
  }

  findByHash(tokenHash: string) {
    return findMailedLink(this.db, 'email_verifications', tokenHash);
  }

  spend(id: number, at: number): Promise<boolean> {
    return spendMailedLink(this.db, 'email_verifications', id, at);
  }

  /** Marks the address verified, if it is still the account's address. */
  async markVerified(userId: number, emailKey: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ email_verified_at: at })
      .where('id', '=', userId)
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
