import { sql } from 'kysely';
import { NotificationEvents } from '../../db/notification-events.ts';
import type { EntryUpdate, NewEntry } from '../../db/schema.ts';
import { HistoryRepository } from '../history/history.repository.ts';
import { PaymentTotalsRepository } from '../payment-totals/payment-totals.repository.ts';

/**
 * Invoice reads and writes. The locks and payment totals that every money change shares are the payment totals'
 * (`PaymentTotalsRepository`), which this builds on.
 */
export class EntriesRepository extends PaymentTotalsRepository {
  /** The change history, on the same connection (and transaction), for writes at instant `at`. */
  history(at: number): HistoryRepository {
    return new HistoryRepository(this.db, at);
  }

  /** The notification outbox, in this repository's transaction (docs/decisions/1150-notification-outbox.md). */
  notifications(): NotificationEvents {
    return new NotificationEvents(this.db);
  }

  /** Whether the entity has a schedule: its bills are recurring (docs/decisions/0215-price-increase-event.md). */
  async hasSchedule(billId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('schedules')
      .select('id')
      .where('bill_id', '=', billId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The entity's confirmed live invoice of this flow just before `entry` (by date, then id), other than `entry`: the
   * amount a new one is compared with.
   */
  previousActual(entry: { id: number; ledger_id: number; bill_id: number; flow: string; date: string }) {
    return this.db
      .selectFrom('entries')
      .select(['id', 'invoice_number', 'date', 'amount_cents'])
      .where('ledger_id', '=', entry.ledger_id)
      .where('bill_id', '=', entry.bill_id)
      .where('flow', '=', entry.flow)
      .where('recycled_at', 'is', null)
      .where('estimated', '=', 0)
      .where('id', '!=', entry.id)
      .where((eb) =>
        eb.or([eb('date', '<', entry.date), eb.and([eb('date', '=', entry.date), eb('id', '<', entry.id)])]),
      )
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

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
      .returningAll()
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
      .returningAll()
      .execute();
  }
}
