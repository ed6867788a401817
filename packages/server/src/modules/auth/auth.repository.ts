import type { Insertable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { UserIdentitiesTable, UsersTable } from '../../db/schema.ts';

/** The name a personal ledger starts with; its owner may rename it. */
export const PERSONAL_LEDGER_NAME = 'Personal';

export class AuthRepository extends Repository {
  findUserByLogin(key: string) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('username_key', '=', key), eb('email_key', '=', key)]))
      .executeTakeFirst();
  }

  findUserById(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async usernameOrEmailTaken(usernameKey: string, emailKey: string) {
    const rows = await this.db
      .selectFrom('users')
      .select(['username_key', 'email_key'])
      .where((eb) => eb.or([eb('username_key', '=', usernameKey), eb('email_key', '=', emailKey)]))
      .execute();
    return {
      username: rows.some((r) => r.username_key === usernameKey),
      email: rows.some((r) => r.email_key === emailKey),
    };
  }

  /** The account and its personal ledger (docs/decisions/0107-ledgers.md), which it owns: made together or not at all. */
  insertUser(user: Insertable<UsersTable>) {
    return this.transaction(async (repo) => {
      const row = await repo.db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
      const ledger = await repo.db
        .insertInto('ledgers')
        .values({ name: PERSONAL_LEDGER_NAME, personal_user_id: row.id, created_at: row.created_at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await repo.db
        .insertInto('ledger_members')
        .values({ ledger_id: ledger.id, user_id: row.id, role: 'owner', joined_at: row.created_at })
        .execute();
      return row;
    });
  }

  // ---- identity provider (docs/decisions/0722-openid-connect-sign-in.md) ----

  findIdentity(issuer: string, subject: string) {
    return this.db
      .selectFrom('user_identities')
      .selectAll()
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  findIdentityOfUser(userId: number, issuer: string) {
    return this.db
      .selectFrom('user_identities')
      .selectAll()
      .where('user_id', '=', userId)
      .where('issuer', '=', issuer)
      .executeTakeFirst();
  }

  findUserByEmail(emailKey: string) {
    return this.db.selectFrom('users').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
  }

  async usernameTaken(usernameKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('username_key', '=', usernameKey)
      .executeTakeFirst();
    return row !== undefined;
  }

  insertIdentity(identity: Insertable<UserIdentitiesTable>) {
    return this.db.insertInto('user_identities').values(identity).execute();
  }

  touchIdentity(id: number, at: number) {
    return this.db.updateTable('user_identities').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async deleteIdentity(userId: number, issuer: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('user_identities')
      .where('user_id', '=', userId)
      .where('issuer', '=', issuer)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  insertSignInTicket(ticket: { user_id: number; token_hash: string; expires_at: number }) {
    return this.db.insertInto('sign_in_tickets').values(ticket).execute();
  }

  /** Spends an unexpired ticket once (a conditional update): its user's id, or null. */
  async spendSignInTicket(tokenHash: string, now: number): Promise<number | null> {
    const row = await this.db
      .updateTable('sign_in_tickets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row ? Number(row.user_id) : null;
  }

  // ---- end of identity provider ----

  recordLogin(userId: number, at: number) {
    return this.db
      .updateTable('users')
      .set({ last_login: at, deactivated_at: null })
      .where('id', '=', userId)
      .execute();
  }

  insertRefreshToken(token: {
    user_id: number;
    family_id: string;
    token_hash: string;
    created_at: number;
    expires_at: number;
  }) {
    return this.db.insertInto('refresh_tokens').values(token).execute();
  }

  findRefreshToken(tokenHash: string) {
    return this.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks a token used only if nobody used it first; `false` means it was already spent (reuse). */
  async markRefreshTokenUsed(id: number, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  revokeFamily(familyId: string, at: number) {
    return this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: at })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Recent failures for a throttle key, newest first. */
  recentFailures(key: string, since: number, limit: number) {
    return this.db
      .selectFrom('login_failures')
      .select('at')
      .where('key', '=', key)
      .where('at', '>', since)
      .orderBy('at', 'desc')
      .limit(limit)
      .execute();
  }

  async recordFailures(keys: string[], at: number): Promise<number[]> {
    const rows = await this.db
      .insertInto('login_failures')
      .values(keys.map((key) => ({ key, at })))
      .returning('id')
      .execute();
    return rows.map((row) => Number(row.id));
  }

  deleteFailures(ids: number[]) {
    return this.db.deleteFrom('login_failures').where('id', 'in', ids).execute();
  }

  clearFailures(key: string) {
    return this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }
}
