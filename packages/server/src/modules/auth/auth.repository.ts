import type { Insertable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { UsersTable } from '../../db/schema.ts';

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
