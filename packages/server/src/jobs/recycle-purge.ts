import type { Db } from '../db/database.ts';
import { notImporting } from '../db/ledger-imports.ts';
import { RECYCLE_RETENTION } from '../lib/retention.ts';

export interface RecyclePurgeResult {
  payments: number;
  entries: number;
  bills: number;
}

/**
 * Removes for good what was recycled more than 14 days ago: payments, then invoices, then entities (children
 * first, so no foreign-key cascade has to find them). Each step is one idempotent DELETE, so several processes
 * may run it at the same moment without harm. A ledger an account import is still writing is passed over: its
 * rows are not there yet for anyone (db/ledger-imports.ts).
 */
export async function purgeRecycleBin(db: Db, now: number): Promise<RecyclePurgeResult> {
  const cutoff = now - RECYCLE_RETENTION;
  const payments = await db
    .deleteFrom('payments')
    .where('recycled_at', '<', cutoff)
    .where(notImporting('ledger_id'))
    .executeTakeFirst();
  const entries = await db
    .deleteFrom('entries')
    .where('recycled_at', '<', cutoff)
    .where(notImporting('ledger_id'))
    .executeTakeFirst();
  const bills = await db
    .deleteFrom('bills')
    .where('recycled_at', '<', cutoff)
    .where(notImporting('ledger_id'))
    .executeTakeFirst();
  return {
    payments: Number(payments.numDeletedRows),
    entries: Number(entries.numDeletedRows),
    bills: Number(bills.numDeletedRows),
  };
}
