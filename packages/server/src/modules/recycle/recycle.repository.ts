import type { RecycleType } from '@billfold/contract/recycle';
import { Repository } from '../../db/repository.ts';
import { PaymentTotalsRepository } from '../payment-totals/payment-totals.repository.ts';

/** The bin's listing: items recycled since `since` whose parent is not itself in the bin. */
export class RecycleRepository extends Repository {
  listBills(ledgerId: number, since: number) {
    return this.db
      .selectFrom('bills')
      .select(['id', 'name', 'category', 'status', 'recycled_at'])
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', '>=', since)
      .execute();
  }

  listEntries(ledgerId: number, since: number) {
    return this.db
      .selectFrom('entries as e')
      .innerJoin('bills as b', 'b.id', 'e.bill_id')
      .select([
        'e.id',
        'e.bill_name',
        'e.invoice_number',
        'e.date',
        'e.amount_cents',
        'e.flow',
        'e.internal',
        'e.services',
        'e.recycled_at',
      ])
      .where('e.ledger_id', '=', ledgerId)
      .where('e.recycled_at', '>=', since)
      .where('b.recycled_at', 'is', null)
      .execute();
  }

  listPayments(ledgerId: number, since: number) {
    return this.db
      .selectFrom('payments as p')
      .innerJoin('entries as e', 'e.id', 'p.entry_id')
      .select([
        'p.id',
        'p.date',
        'p.amount_cents',
        'p.type',
        'p.medium',
        'p.notes',
        'p.recycled_at',
        'e.bill_name',
        'e.invoice_number',
      ])
      .where('p.ledger_id', '=', ledgerId)
      .where('p.recycled_at', '>=', since)
      .where('e.recycled_at', 'is', null)
      .execute();
  }

  /** Whether this ledger has that item in the bin (recycled and not yet purged). */
  async isRecycled(ledgerId: number, type: RecycleType, id: number): Promise<boolean> {
    const table = type === 'Entity' ? 'bills' : type === 'Invoice' ? 'entries' : 'payments';
    const row = await this.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Deletes an item of this ledger's bin for good with what was deleted with it, children first as the purge job
   * does (jobs/recycle-purge.ts): a payment; an invoice and its payments; an entity, its invoices and their payments
   * (its schedules and rollup rows go by foreign-key cascade). Every row removed is recycled, and recycled rows
   * count in no rollup or total, so nothing derived changes. An item is in the bin as the listing has it: recycled,
   * its parent not. The entity or invoice is locked as a restore locks it, so the two run one after the other. Call
   * inside a transaction. False when the item is not in this ledger's bin.
   */
  async deleteForever(ledgerId: number, type: RecycleType, id: number): Promise<boolean> {
    if (type === 'Payment') {
      const result = await this.db
        .deleteFrom('payments')
        .where('id', '=', id)
        .where('ledger_id', '=', ledgerId)
        .where('recycled_at', 'is not', null)
        .where('entry_id', 'in', this.db.selectFrom('entries').select('id').where('recycled_at', 'is', null))
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    }
    const ledger = new PaymentTotalsRepository(this.db);
    if (type === 'Entity') {
      const bill = await ledger.lockBill(ledgerId, id);
      if (bill?.recycled_at == null) return false;
    } else {
      const entry = await ledger.lockEntry(ledgerId, id);
      if (entry?.recycled_at == null || (await this.isRecycled(ledgerId, 'Entity', entry.bill_id))) return false;
    }
    const column = type === 'Entity' ? 'bill_id' : 'id';
    const entries = this.db.selectFrom('entries').select('id').where(column, '=', id).where('ledger_id', '=', ledgerId);
    await this.db.deleteFrom('payments').where('entry_id', 'in', entries).execute();
    await this.db.deleteFrom('entries').where(column, '=', id).where('ledger_id', '=', ledgerId).execute();
    if (type === 'Entity') await this.db.deleteFrom('bills').where('id', '=', id).execute();
    return true;
  }
}
