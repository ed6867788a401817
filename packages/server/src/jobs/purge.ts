import type { Db } from '../db/database.ts';
import { DEACTIVATED_ACCOUNT_RETENTION, THROTTLE_WINDOW } from '../lib/retention.ts';

/**
 * Deletes accounts deactivated more than 30 days ago (their data goes by foreign-key cascade), spent
 * refresh tokens, expired sign-in challenges and provider sign-in tickets, and stale login failures. Each step is one idempotent DELETE, so several processes may
 * run it at the same moment without harm.
 */
export async function purgeAccounts(db: Db, now: number): Promise<{ users: number }> {
  const users = await db
    .deleteFrom('users')
    .where('deactivated_at', 'is not', null)
    .where('deactivated_at', '<', now - DEACTIVATED_ACCOUNT_RETENTION)
    .executeTakeFirst();
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', now).execute();
  await db.deleteFrom('mfa_challenges').where('expires_at', '<', now).execute();
  await db.deleteFrom('sign_in_tickets').where('expires_at', '<', now).execute();
  await db
    .deleteFrom('login_failures')
    .where('at', '<', now - THROTTLE_WINDOW)
    .execute();
  return { users: Number(users.numDeletedRows) };
}
