import type { Updateable } from 'kysely';
import { handOverLedgers } from '../../db/ledger-handover.ts';
import { Repository } from '../../db/repository.ts';
import type { UsersTable } from '../../db/schema.ts';

export class UsersRepository extends Repository {
  findById(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async emailTakenByOther(emailKey: string, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('email_key', '=', emailKey)
      .where('id', '!=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  update(id: number, changes: Updateable<UsersTable>) {
    return this.db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  /** A deactivated account's shared ledgers keep an owner (`db/ledger-handover.ts`). Call inside a transaction. */
  handOverLedgers(userId: number) {
    return handOverLedgers(this.db, userId, false);
  }

  revokeRefreshTokens(userId: number, at: number) {
    return this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** MFA off with everything it left behind; the operator's reset runs this too. Call inside a transaction. */
  async turnOffMfa(userId: number) {
    await this.db
      .updateTable('users')
      .set({ mfa_enabled: 0, mfa_secret: null, mfa_pending_secret: null })
      .where('id', '=', userId)
      .execute();
    await this.db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
  }
}
