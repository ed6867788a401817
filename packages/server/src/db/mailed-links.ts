import type { Db } from './database.ts';

/** The tables of links sent by mail, each a hashed single-use token with its expiry (ADRs 1131 and 0723). */
export type MailedLinkTable = 'email_verifications' | 'password_resets';

/** The link whose token hashes to `tokenHash`, used or not. */
export function findMailedLink(db: Db, table: MailedLinkTable, tokenHash: string) {
  // Both tables have the same columns; the one name keeps Kysely's row type whole.
  return db
    .selectFrom(table as 'password_resets')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Spends a link: true for exactly one caller, however many follow it at once. */
export async function spendMailedLink(db: Db, table: MailedLinkTable, id: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable(table as 'password_resets')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
