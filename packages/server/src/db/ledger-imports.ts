import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { nextTurn } from '../lib/turns.ts';
import type { Db } from './database.ts';

/**
 * Ledgers an account import is still writing (docs/decisions/0707-account-import-in-steps.md): `importing_since` is
 * set, no one is a member, and nothing may see their rows until the import's last transaction makes the ledger the
 * account's. Requests reach a ledger only through its members (plugins/ledger.ts); work that goes over every ledger
 * passes these over with `notImporting`; one whose import stopped with its process goes at the next start.
 */
const importingLedgers = sql`(select l.id from ledgers l where l.importing_since is not null)`;

/** `column` (a ledger id) names no ledger an account import is still writing. */
export function notImporting(column: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} not in ${importingLedgers}`;
}

/** Rows a statement deletes at most while a ledger an import was writing is removed. */
const REMOVE_ROWS = 2_000;

/** The ledgers imports are still writing (or were, when their process stopped). */
export async function unfinishedImports(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('ledgers')
    .select('id')
    .where('importing_since', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/**
 * Removes a ledger an import was writing, in statements of at most `REMOVE_ROWS` rows, each its own transaction,
 * with a turn of the event loop between them (one DELETE of a large ledger would be one large transaction, the
 * pause the import's steps avoid): schedules (their occurrences with them), payments, invoices, entities (the
 * history of each with it), the change log their deletion wrote, then the ledger row and what is left with it by
 * cascade. Nobody sees the ledger meanwhile. Every statement names only a ledger still being imported, so one made
 * the account's in the meantime is never touched. `signal` ends the work between two steps. False when there was no
 * such ledger (already removed).
 */
export async function removeImport(db: Db, ledgerId: number, signal?: AbortSignal): Promise<boolean> {
  const stillImporting = db
    .selectFrom('ledgers')
    .select('id')
    .where('id', '=', ledgerId)
    .where('importing_since', 'is not', null);
  if (!(await stillImporting.executeTakeFirst())) return false;
  for (const table of ['schedules', 'payments', 'entries', 'bills'] as const) {
    for (;;) {
      const done = await db
        .deleteFrom(table)
        .where('id', 'in', (eb) =>
          eb.selectFrom(table).select('id').where('ledger_id', '=', ledgerId).limit(REMOVE_ROWS),
        )
        .where('ledger_id', 'in', stillImporting)
        .executeTakeFirst();
      await nextTurn();
      if (signal?.aborted) return true;
      if (Number(done.numDeletedRows) < REMOVE_ROWS) break;
    }
  }
  // The change log has no foreign key: by versions, the oldest `REMOVE_ROWS` rows at a time.
  for (;;) {
    const done = await sql`delete from entry_changes where ledger_id = ${ledgerId}
        and exists (select 1 from ledgers where id = ${ledgerId} and importing_since is not null) and version <= (
        select max(version) from (select version from entry_changes where ledger_id = ${ledgerId}
          order by version limit ${REMOVE_ROWS}) first_rows)`.execute(db);
    await nextTurn();
    if (signal?.aborted) return true;
    if (Number(done.numAffectedRows ?? 0) === 0) break;
  }
  await db.deleteFrom('ledgers').where('id', '=', ledgerId).where('importing_since', 'is not', null).execute();
  return true;
}

/**
 * Removes each of `ledgerIds` (ledgers of imports a stopped process left) in short steps, one after another; `signal`
 * (the server stopping) ends the work between two steps, leaving the rest to the next start.
 */
export async function removeUnfinishedImports(
  db: Db,
  ledgerIds: readonly number[],
  signal?: AbortSignal,
): Promise<{ ledgers: number }> {
  let ledgers = 0;
  for (const id of ledgerIds) {
    if (signal?.aborted) break;
    await removeImport(db, id, signal);
    if (signal?.aborted) break;
    ledgers++;
  }
  return { ledgers };
}
