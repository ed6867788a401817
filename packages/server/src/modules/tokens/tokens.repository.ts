import type { Insertable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { ApiTokensTable } from '../../db/schema.ts';

export class TokensRepository extends Repository {
  list(userId: number) {
    return this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether the user is a member of the ledger (any role): a token can be bound only to such a ledger. */
  async isMember(userId: number, ledgerId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('ledger_members')
      .select('ledger_id')
      .where('user_id', '=', userId)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
    return row !== undefined;
  }

  insert(token: Insertable<ApiTokensTable>) {
    return this.db.insertInto('api_tokens').values(token).returningAll().executeTakeFirstOrThrow();
  }

  /** Deletes the user's own token; false when they have no such token. */
  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('api_tokens')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
