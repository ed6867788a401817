import { Repository } from '../../db/repository.ts';
import type { EntryUpdate } from '../../db/schema.ts';

export interface PaymentTotals {
  entryId: number;
  paidCents: number;
  count: number;
}

/**
 * The rows every money change locks, in one order (the entity, then its invoice), and the per-invoice payment
 * totals it recomputes. Invoice writes (`EntriesRepository`) build on it; payments and entities reach it through
 * their repository's `paymentTotals()`, on the same connection and transaction.
 */
export class PaymentTotalsRepository extends Repository {
  findEntry(ledgerId: number, id: number) {
    return this.db
      .selectFrom('entries')
      .selectAll()
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirst();
  }

  /**
   * Reads the entry with a no-op update, which takes its row lock (PostgreSQL) or the write lock (SQLite) until
   * the transaction ends: concurrent changes of one invoice and its payments then run one after the other, so
   * totals computed afterwards see every committed payment.
   */
  lockEntry(ledgerId: number, id: number) {
    return this.db
      .updateTable('entries')
      .set((eb) => ({ ledger_id: eb.ref('ledger_id') }))
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .returningAll()
      .executeTakeFirst();
  }

  /** The entity row, locked like `lockEntry`; entity changes lock the entity before its invoices, as we do. */
  lockBill(ledgerId: number, billId: number) {
    return this.db
      .updateTable('bills')
      .set((eb) => ({ ledger_id: eb.ref('ledger_id') }))
      .where('id', '=', billId)
      .where('ledger_id', '=', ledgerId)
      .returningAll()
      .executeTakeFirst();
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

  writeTotals(id: number, totals: EntryUpdate) {
    return this.db.updateTable('entries').set(totals).where('id', '=', id).execute();
  }
}
