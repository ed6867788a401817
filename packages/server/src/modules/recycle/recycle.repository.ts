import type { RecycleType } from '@billfold/contract/recycle';
import { Repository } from '../../db/repository.ts';

/** The bin's listing: items recycled since `since` whose parent is not itself in the bin. */
export class RecycleRepository extends Repository {
  listBills(userId: number, since: number) {
    return this.db
      .selectFrom('bills')
      .select(['id', 'name', 'category', 'status', 'recycled_at'])
      .where('user_id', '=', userId)
      .where('recycled_at', '>=', since)
      .execute();
  }

  listEntries(userId: number, since: number) {
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
      .where('e.user_id', '=', userId)
      .where('e.recycled_at', '>=', since)
      .where('b.recycled_at', 'is', null)
      .execute();
  }

  listPayments(userId: number, since: number) {
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
      .where('p.user_id', '=', userId)
      .where('p.recycled_at', '>=', since)
      .where('e.recycled_at', 'is', null)
      .execute();
  }

  /** Whether this user has that item in the bin (recycled and not yet purged). */
  async isRecycled(userId: number, type: RecycleType, id: number): Promise<boolean> {
    const table = type === 'Entity' ? 'bills' : type === 'Invoice' ? 'entries' : 'payments';
    const row = await this.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('recycled_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Deletes a recycled item for good with what was deleted with it, children first as the purge job does
   * (jobs/recycle-purge.ts): a payment; an invoice and its payments; an entity, its invoices and their payments
   * (its schedules and rollup rows go by foreign-key cascade). Only recycled rows are counted in rollups and totals,
   * so nothing derived changes. Call inside a transaction. False when the item is not in this user's bin.
   */
  async deleteForever(userId: number, type: RecycleType, id: number): Promise<boolean> {
    if (type === 'Payment') {
      const result = await this.db
        .deleteFrom('payments')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('recycled_at', 'is not', null)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    }
    if (!(await this.isRecycled(userId, type, id))) return false;
    const entries = (eb: typeof this.db) =>
      type === 'Invoice'
        ? eb.selectFrom('entries').select('id').where('id', '=', id).where('user_id', '=', userId)
        : eb.selectFrom('entries').select('id').where('bill_id', '=', id).where('user_id', '=', userId);
    await this.db
      .deleteFrom('payments')
      .where('user_id', '=', userId)
      .where('entry_id', 'in', entries(this.db))
      .execute();
    if (type === 'Invoice') {
      await this.db.deleteFrom('entries').where('id', '=', id).where('user_id', '=', userId).execute();
    } else {
      await this.db.deleteFrom('entries').where('bill_id', '=', id).where('user_id', '=', userId).execute();
      await this.db.deleteFrom('bills').where('id', '=', id).where('user_id', '=', userId).execute();
    }
    return true;
  }
}
