import type { Insertable, Updateable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { BillRow, CategoriesTable } from '../../db/schema.ts';
import { HistoryRepository } from '../history/history.repository.ts';

export class CategoriesRepository extends Repository {
  list(ledgerId: number) {
    return this.db.selectFrom('categories').selectAll().where('ledger_id', '=', ledgerId).execute();
  }

  /** How many live entities (archived ones included) carry each category name, or only `name`. */
  async entityCounts(ledgerId: number, name?: string): Promise<Map<string, number>> {
    let query = this.db
      .selectFrom('bills')
      .select((eb) => ['category', eb.fn.countAll<number>().as('n')])
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', 'is', null);
    if (name !== undefined) query = query.where('category', '=', name);
    const rows = await query.groupBy('category').execute();
    return new Map(rows.map((r) => [r.category, Number(r.n)]));
  }

  async count(ledgerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('categories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The user's category `id` with its row lock held to the end of the transaction, or undefined. */
  lockOwned(ledgerId: number, id: number) {
    return this.db
      .updateTable('categories')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .returningAll()
      .executeTakeFirst();
  }

  holderOfKey(ledgerId: number, nameKey: string, exceptId: number | null) {
    let query = this.db
      .selectFrom('categories')
      .select(['id', 'retired_at'])
      .where('ledger_id', '=', ledgerId)
      .where('name_key', '=', nameKey);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return query.executeTakeFirst();
  }

  insert(row: Insertable<CategoriesTable>) {
    return this.db.insertInto('categories').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<CategoriesTable>) {
    return this.db.updateTable('categories').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * A rename reaches every entity of the user that carries the old name (recycled ones too, so a restore brings
   * the new name back) and their invoices' copies; the rollup and data-version triggers follow in the transaction. Returns the entities renamed.
   */
  async renameOnEntities(ledgerId: number, from: string, to: string): Promise<BillRow[]> {
    const bills = await this.db
      .updateTable('bills')
      .set({ category: to })
      .where('ledger_id', '=', ledgerId)
      .where('category', '=', from)
      .returningAll()
      .execute();
    await this.db
      .updateTable('entries')
      .set({ category: to })
      .where('bill_id', 'in', (eb) =>
        eb.selectFrom('bills').select('id').where('ledger_id', '=', ledgerId).where('category', '=', to),
      )
      .where('category', '=', from)
      .execute();
    return bills;
  }

  /** The change history, on the same connection (and transaction), for writes at instant `at`. */
  history(at: number): HistoryRepository {
    return new HistoryRepository(this.db, at);
  }
}
