import type { Db } from '../db/database.ts';
import { handOverLedgers } from '../db/ledger-handover.ts';
import { retryingTransaction } from '../db/repository.ts';
import { DEACTIVATED_ACCOUNT_RETENTION, THROTTLE_WINDOW } from '../lib/retention.ts';

/**
 * Deletes accounts deactivated more than 30 days ago, each in its own transaction: the shared ledgers it still
 * owns alone pass to their longest-standing member or, with nobody left, go (`handOverLedgers`); its personal
 * ledger and its data go by foreign-key cascade. Then spent refresh tokens, expired sign-in challenges and provider
 * sign-in tickets, stale login failures, and the readings of bills past their keeping
 * (docs/decisions/1165-readings-in-the-database.md). Each step is one idempotent DELETE, so several processes may
 * run it at the same moment without harm.
 */
export async function purgeAccounts(db: Db, now: number): Promise<{ users: number }> {
  const expired = await db
    .selectFrom('users')
    .select('id')
    .where('deactivated_at', 'is not', null)
    .where('deactivated_at', '<', now - DEACTIVATED_ACCOUNT_RETENTION)
    .orderBy('id')
    .execute();
  let users = 0;
  for (const { id } of expired) {
    users += await retryingTransaction(db, async (trx) => {
      // The account's row, locked first: two processes purging at once run one after the other (a lost race on
      // SQLite's write lock runs the transaction again), and the second finds it gone.
      const locked = await trx
        .updateTable('users')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(locked.numUpdatedRows) === 0) return 0;
      await handOverLedgers(trx, id, true);
      // Another process may have purged it meanwhile: then this deletes nothing.
      const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', now).execute();
  await db.deleteFrom('mfa_challenges').where('expires_at', '<', now).execute();
  await db.deleteFrom('sign_in_tickets').where('expires_at', '<', now).execute();
  await db
    .deleteFrom('login_failures')
    .where('at', '<', now - THROTTLE_WINDOW)
    .execute();
  await db.deleteFrom('bill_readings').where('expires_at', '<=', now).execute();
  return { users };
}
