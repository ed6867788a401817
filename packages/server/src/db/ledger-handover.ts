import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * When an account goes (docs/decisions/0107-ledgers.md): every shared ledger it is the only owner of passes to
 * its longest-standing other member whose account is active (earliest `joined_at`, then lowest user id), so a
 * ledger always keeps an owner. On deactivation that is all; on the purge (`deleting`), a shared ledger with no
 * such member left is deleted with its data, and the personal ledger goes with the account by cascade. Call it
 * inside the transaction that deactivates or deletes the account.
 */
export async function handOverLedgers(
  db: Kysely<Database>,
  userId: number,
  deleting: boolean,
): Promise<{ handedOver: number; deleted: number }> {
  const owned = await db
    .selectFrom('ledger_members as m')
    .innerJoin('ledgers as l', 'l.id', 'm.ledger_id')
    .select('l.id')
    .where('m.user_id', '=', userId)
    .where('m.role', '=', 'owner')
    .where((eb) => eb.or([eb('l.personal_user_id', 'is', null), eb('l.personal_user_id', '!=', userId)]))
    .orderBy('l.id')
    .execute();
  let handedOver = 0;
  let deleted = 0;
  for (const { id } of owned) {
    const others = await db
      .selectFrom('ledger_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.role'])
      .where('m.ledger_id', '=', id)
      .where('m.user_id', '!=', userId)
      .where('u.deactivated_at', 'is', null)
      .orderBy('m.joined_at')
      .orderBy('m.user_id')
      .execute();
    if (others.some((m) => m.role === 'owner')) continue;
    const heir = others[0];
    if (heir) {
      await db
        .updateTable('ledger_members')
        .set({ role: 'owner' })
        .where('ledger_id', '=', id)
        .where('user_id', '=', heir.user_id)
        .execute();
      handedOver += 1;
    } else if (deleting) {
      await db.deleteFrom('ledgers').where('id', '=', id).execute();
      deleted += 1;
    }
  }
  return { handedOver, deleted };
}
