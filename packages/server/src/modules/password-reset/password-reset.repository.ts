import { findMailedLink, spendMailedLink } from '../../db/mailed-links.ts';
import { Repository } from '../../db/repository.ts';

/** The password links sent (hashed tokens), and the account's password (docs/decisions/0723-password-reset.md). */
export class PasswordResetRepository extends Repository {
  userByEmail(emailKey: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'email_key', 'email_verified_at', 'deactivated_at'])
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
  }

  user(userId: number) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'email_key', 'deactivated_at', 'token_version'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** The account's new link; the links sent before it stop working. */
  async replaceLinks(link: {
    user_id: number;
    token_hash: string;
    email_key: string;
    created_at: number;
    expires_at: number;
  }): Promise<void> {
    await this.db.deleteFrom('password_resets').where('user_id', '=', link.user_id).execute();
    await this.db.insertInto('password_resets').values(link).execute();
  }

  findByHash(tokenHash: string) {
    return findMailedLink(this.db, 'password_resets', tokenHash);
  }

  spend(id: number, at: number): Promise<boolean> {
    return spendMailedLink(this.db, 'password_resets', id, at);
  }

  /**
   * The new password, and every session ended: the refresh tokens revoked and the token version raised, so each
   * access token issued so far stops at its next request (as a password change does, modules/users).
   */
  async setPassword(userId: number, passwordHash: string, tokenVersion: number, at: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, has_password: 1, token_version: tokenVersion + 1 })
      .where('id', '=', userId)
      .execute();
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    await this.db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  }
}
