import { Repository } from '../../db/repository.ts';
import type { BillRow } from '../../db/schema.ts';

/** An invoice as the price history reads it (cents; ids may come back as text on PostgreSQL). */
export interface PriceRow {
  id: number;
  invoice_number: number;
  date: string;
  flow: string;
  amount_cents: number;
}

/** The reads of an entity's price history (docs/decisions/0211-price-history.md). */
export class PriceHistoryRepository extends Repository {
  entity(ledgerId: number, id: number): Promise<Pick<BillRow, 'id' | 'recycled_at'> | undefined> {
    return this.db
      .selectFrom('bills')
      .select(['id', 'recycled_at'])
      .where('ledger_id', '=', ledgerId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The entity's live invoices, oldest first (date, then invoice number), through the `entries_bill` index. */
  invoices(ledgerId: number, billId: number): Promise<PriceRow[]> {
    return this.db
      .selectFrom('entries')
      .select(['id', 'invoice_number', 'date', 'flow', 'amount_cents'])
      .where('bill_id', '=', billId)
      .where('recycled_at', 'is', null)
      .where('ledger_id', '=', ledgerId)
      .orderBy('date')
      .orderBy('invoice_number')
      .orderBy('id')
      .execute();
  }
}
