import { type ExpressionBuilder, sql } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { Database, EntryUpdate, NewEntry } from '../../db/schema.ts';

/**
 * An invoice going to the recycle bin together with its live payments (`cascade` 1 when it goes with its entity):
 * nothing is paid on it any more, so its stored totals are set in the same statement.
 */
export function recycledEntry(at: number, cascade: 0 | 1) {
  return (eb: ExpressionBuilder<Database, 'entries'>) => ({
    recycled_at: at,
    recycled_cascade: cascade,
    paid_cents: 0,
    payment_count: 0,
    balance_cents: eb.ref('amount_cents'),
    pay_state: 0,
  });
}

export interface PaymentTotals {
  entryId: number;
  paidCents: number;
  count: number;
}

/** Invoice reads and writes, and the per-invoice payment totals every payment change recomputes. */
export class EntriesRepository extends Repository {
  findOwned(userId: number, id: number) {
    return this.db
      .selectFrom('entries')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * Reads the entry with a no-op update, which takes its row lock (PostgreSQL) or the write lock (SQLite) until
   * the transaction ends: concurrent changes of one invoice and its payments then run one after the other, so
   * totals computed afterwards see every committed payment.
   */
  lockOwned(userId: number, id: number) {
    return this.db
      .updateTable('entries')
      .set((eb) => ({ user_id: eb.ref('user_id') }))
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** The entity row, locked like `lockOwned`; entity changes lock the entity before its invoices, as we do. */
  lockBill(userId: number, billId: number) {
    return this.db
      .updateTable('bills')
      .set((eb) => ({ user_id: eb.ref('user_id') }))
      .where('id', '=', billId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Issues the user's next invoice number: an atomic increment under the user row's lock, never reused. */
  async nextInvoiceNumber(userId: number): Promise<number> {
    const row = await this.db
      .updateTable('users')
      .set({ last_invoice_number: sql`last_invoice_number + 1` })
      .where('id', '=', userId)
      .returning('last_invoice_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_invoice_number);
  }

  insert(row: NewEntry) {
    return this.db.insertInto('entries').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: EntryUpdate) {
    return this.db.updateTable('entries').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Sum and count of the live payments of each listed entry; entries without live payments are absent. */
  async livePaymentTotals(entryIds: readonly number[]): Promise<PaymentTotals[]> {
    if (entryIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('payments')
      .select((eb) => ['entry_id', eb.fn.sum<number>('amount_cents').as('paid'), eb.fn.countAll<number>().as('count')])
      .where('entry_id', 'in', entryIds)
      .where('recycled_at', 'is', null)
      .groupBy('entry_id')
      .execute();
    return rows.map((r) => ({ entryId: r.entry_id, paidCents: Number(r.paid), count: Number(r.count) }));
  }

  /** Deletes the entry's live payments together with it: flagged so that restoring the entry brings them back. */
  recycleLivePayments(entryId: number, at: number) {
    return this.db
      .updateTable('payments')
      .set({ recycled_at: at, recycled_cascade: 1 })
      .where('entry_id', '=', entryId)
      .where('recycled_at', 'is', null)
      .execute();
  }

  /** Restores the payments deleted together with the entry; ones deleted on their own before stay in the bin. */
  restoreCascadedPayments(entryId: number) {
    return this.db
      .updateTable('payments')
      .set({ recycled_at: null, recycled_cascade: 0 })
      .where('entry_id', '=', entryId)
      .where('recycled_at', 'is not', null)
      .where('recycled_cascade', '=', 1)
      .execute();
  }
}
