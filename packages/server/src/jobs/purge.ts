import type { Db } from '../db/database.ts';
import { DEACTIVATED_ACCOUNT_RETENTION, THROTTLE_WINDOW } from '../lib/retention.ts';

/**
 * Deletes accounts deactivated more than 30 days ago (their data goes by foreign-key cascade), spent
 * refresh tokens, expired sign-in challenges and provider sign-in tickets, and stale login failures. Each step is one idempotent DELETE, so several processes may
 * run it at the same moment without harm.
 */
export async function purgeAccounts(db: Db, now: number): Promise<{ users: number }> {
  // First, so no shared ledger is ever left without an owner; each of its steps is idempotent too, and an account
  // whose hand-over is done stays an owner beside the heir until it goes (or signs in again in between).
  await handOverLedgers(db, now);
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

/**
 * A ledger always keeps an owner (docs/decisions/0107-ledgers.md), also when its last owners' accounts are purged:
 * each shared ledger that would be left without one passes to its earliest editor, else its earliest viewer; one
 * that would be left without members goes (its data with it, by cascade). Personal ledgers go with their person.
 */
async function handOverLedgers(db: Db, now: number): Promise<void> {
  const purged = db
    .selectFrom('users')
    .select('id')
    .where('deactivated_at', 'is not', null)
    .where('deactivated_at', '<', now - DEACTIVATED_ACCOUNT_RETENTION);
  const orphaned = await db
    .selectFrom('ledger_members as m')
    .innerJoin('ledgers as l', 'l.id', 'm.ledger_id')
    .select('m.ledger_id')
    .distinct()
    .where('l.personal_user_id', 'is', null)
    .where('m.role', '=', 'owner')
    .where('m.user_id', 'in', purged)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('ledger_members as o')
            .select('o.user_id')
            .whereRef('o.ledger_id', '=', 'm.ledger_id')
            .where('o.role', '=', 'owner')
            .where('o.user_id', 'not in', purged),
        ),
      ),
    )
    .execute();
  for (const { ledger_id: ledgerId } of orphaned) {
    const heir = await db
      .selectFrom('ledger_members')
      .select('user_id')
      .where('ledger_id', '=', ledgerId)
      .where('user_id', 'not in', purged)
      .orderBy((eb) => eb.case().when('role', '=', 'editor').then(0).else(1).end())
      .orderBy('joined_at')
      .orderBy('user_id')
      .executeTakeFirst();
    if (heir) {
      await db
        .updateTable('ledger_members')
        .set({ role: 'owner' })
        .where('ledger_id', '=', ledgerId)
        .where('user_id', '=', heir.user_id)
        .execute();
    } else {
      await db.deleteFrom('ledgers').where('id', '=', ledgerId).execute();
    }
  }
}
