import type { Insertable, Updateable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { BillRow, CategoriesTable } from '../../db/schema.ts';
import { HistoryRepository } from '../history/history.repository.ts';

export class CategoriesRepository extends Repository {
  list(userId: number) {
    return this.db.selectFrom('categories').selectAll().where('user_id', '=', userId).execute();
  }

  /** How many live entities (archived ones included) carry each category name, or only `name`. */
  async entityCounts(userId: number, name?: string): Promise<Map<string, number>> {
    let query = this.db
      .selectFrom('bills')
      .select((eb) => ['category', eb.fn.countAll<number>().as('n')])
      .where('user_id', '=', userId)
      .where('recycled_at', 'is', null);
    if (name !== undefined) query = query.where('category', '=', name);
    const rows = await query.groupBy('category').execute();
    return new Map(rows.map((r) => [r.category, Number(r.n)]));
  }

  /** Reads the user's row with a no-op update that holds its lock: one user's category creates run one at a time. */
  async lockUser(userId: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', userId)
      .execute();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('categories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The user's category `id` with its row lock held to the end of the transaction, or undefined. */
  lockOwned(userId: number, id: number) {
    return this.db
      .updateTable('categories')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  holderOfKey(userId: number, nameKey: string, exceptId: number | null) {
    let query = this.db
      .selectFrom('categories')
      .select(['id', 'retired_at'])
      .where('user_id', '=', userId)
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
  async renameOnEntities(userId: number, from: string, to: string): Promise<BillRow[]> {
    const bills = await this.db
      .updateTable('bills')
      .set({ category: to })
      .where('user_id', '=', userId)
      .where('category', '=', from)
      .returningAll()
      .execute();
    await this.db
      .updateTable('entries')
      .set({ category: to })
      .where('bill_id', 'in', (eb) =>
        eb.selectFrom('bills').select('id').where('user_id', '=', userId).where('category', '=', to),
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
