import type { BillQuery } from '@billfold/contract/bills';
import { categoryLabel } from '@billfold/contract/categories';
import { type Insertable, sql, type Updateable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { BillsTable } from '../../db/schema.ts';
import { entityCategory, namesOwnCategory, readCategoryBook } from '../categories/category-book.ts';
import { LedgerRepository } from '../ledger/ledger.repository.ts';
import { recycledEntry } from '../ledger/ledger.ts';
import type { EntryBillColumns } from './bill.mapper.ts';
import type { NameHolder } from './bills.messages.ts';

export interface BillSearch {
  status?: BillQuery['status'];
  /** Lower-case substring of the name. */
  nameKey?: string | undefined;
  categories?: readonly string[] | undefined;
}

/** `%`, `_` and the escape character itself match literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

export class BillsRepository extends Repository {
  /** The ledger's locks and totals, on the same connection (and transaction) as this repository. */
  ledger(): LedgerRepository {
    return new LedgerRepository(this.db);
  }

  /** The stored category an entity's input names (docs/decisions/0105-categories-of-your-own.md). */
  entityCategory(userId: number, value: unknown): Promise<string> {
    return entityCategory(this.db, userId, value);
  }

  /** A filter's category values as stored names; the user's own are read only when a value is not built in. */
  async categoryFilter(userId: number, values: readonly string[]): Promise<string[]> {
    const book = namesOwnCategory(values) ? await readCategoryBook(this.db, userId) : null;
    return values.map((value) => (book ? book.filterName(value) : categoryLabel(value)));
  }

  list(userId: number, search: BillSearch) {
    let query = this.db.selectFrom('bills').selectAll().where('user_id', '=', userId).where('recycled_at', 'is', null);
    if (search.status === 'active') query = query.where('status', '=', 1);
    if (search.status === 'inactive') query = query.where('status', '=', 0);
    if (search.nameKey) query = query.where(sql<boolean>`name_key like ${containsPattern(search.nameKey)} escape '!'`);
    if (search.categories && search.categories.length > 0) query = query.where('category', 'in', search.categories);
    return query.orderBy('name_key').orderBy('id').execute();
  }

  findOwned(userId: number, id: number) {
    return this.db
      .selectFrom('bills')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Reads the entity with a no-op update that holds its row lock until the transaction ends. */
  lockOwned(userId: number, id: number) {
    return this.ledger().lockBill(userId, id);
  }

  /** Whether another live entity of this user holds the name, and whether that one is archived. */
  async nameHolder(userId: number, nameKey: string, exceptId: number | null): Promise<NameHolder | null> {
    let query = this.db
      .selectFrom('bills')
      .select('status')
      .where('user_id', '=', userId)
      .where('name_key', '=', nameKey)
      .where('recycled_at', 'is', null);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    const row = await query.executeTakeFirst();
    if (!row) return null;
    return row.status === 0 ? 'archived' : 'active';
  }

  insert(row: Insertable<BillsTable>) {
    return this.db.insertInto('bills').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<BillsTable>) {
    return this.db.updateTable('bills').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Copies the entity's columns onto all its invoices (recycled ones too, so a restore needs no fix-up). */
  copyToEntries(billId: number, columns: EntryBillColumns) {
    return this.db.updateTable('entries').set(columns).where('bill_id', '=', billId).execute();
  }

  /**
   * Deletes the entity's live invoices with it, flagged as cascaded. Their payments go next (see
   * `recyclePaymentsOfCascadedEntries`), so their totals drop to nothing paid here already.
   */
  recycleLiveEntries(billId: number, at: number) {
    return this.db
      .updateTable('entries')
      .set(recycledEntry(at, 1))
      .where('bill_id', '=', billId)
      .where('recycled_at', 'is', null)
      .execute();
  }

  recyclePaymentsOfCascadedEntries(billId: number, at: number) {
    return this.db
      .updateTable('payments')
      .set({ recycled_at: at, recycled_cascade: 1 })
      .where('recycled_at', 'is', null)
      .where('entry_id', 'in', (eb) =>
        eb
          .selectFrom('entries')
          .select('id')
          .where('bill_id', '=', billId)
          .where('recycled_at', '=', at)
          .where('recycled_cascade', '=', 1),
      )
      .execute();
  }

  /** Payments that left with a cascaded invoice come back with it; run before `restoreCascadedEntries`. */
  restorePaymentsOfCascadedEntries(billId: number) {
    return this.db
      .updateTable('payments')
      .set({ recycled_at: null, recycled_cascade: 0 })
      .where('recycled_at', 'is not', null)
      .where('recycled_cascade', '=', 1)
      .where('entry_id', 'in', (eb) =>
        eb
          .selectFrom('entries')
          .select('id')
          .where('bill_id', '=', billId)
          .where('recycled_at', 'is not', null)
          .where('recycled_cascade', '=', 1),
      )
      .execute();
  }

  /** Restores the invoices deleted together with the entity; returns them for the totals refresh. */
  restoreCascadedEntries(billId: number) {
    return this.db
      .updateTable('entries')
      .set({ recycled_at: null, recycled_cascade: 0 })
      .where('bill_id', '=', billId)
      .where('recycled_at', 'is not', null)
      .where('recycled_cascade', '=', 1)
      .returning(['id', 'amount_cents', 'paid_cents', 'payment_count', 'balance_cents', 'pay_state'])
      .execute();
  }
}
