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
}
