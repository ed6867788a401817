import { sql } from 'kysely';
import type { EntryUpdate, NewEntry } from '../../db/schema.ts';
import { PaymentTotalsRepository } from '../payment-totals/payment-totals.repository.ts';

/**
 * Invoice reads and writes. The locks and payment totals that every money change shares are the payment totals'
 * (`PaymentTotalsRepository`), which this builds on.
 */
export class EntriesRepository extends PaymentTotalsRepository {
  /** Issues the ledger's next invoice number: an atomic increment under the ledger row's lock, never reused. */
  async nextInvoiceNumber(ledgerId: number): Promise<number> {
    const row = await this.db
      .updateTable('ledgers')
      .set({ last_invoice_number: sql`last_invoice_number + 1` })
      .where('id', '=', ledgerId)
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
