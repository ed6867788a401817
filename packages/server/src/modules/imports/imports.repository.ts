import { type Insertable, sql } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type { BillsTable, ImportsTable, NewEntry, PaymentsTable } from '../../db/schema.ts';
import { AccountDataRepository } from '../account-data/account-data.repository.ts';
import { BillsRepository } from '../bills/bills.repository.ts';
import { recycledEntry } from '../entries/entries.repository.ts';

/** Reads for the import preview, bulk writes for its commit, and the undo of one import. */
export class ImportsRepository extends Repository {
  /** The bulk inserts, on the same connection (and transaction). */
  private bulk(): AccountDataRepository {
    return new AccountDataRepository(this.db);
  }

  liveBills(userId: number) {
    return this.db
      .selectFrom('bills')
      .select(['id', 'name', 'name_key', 'category', 'internal', 'status'])
      .where('user_id', '=', userId)
      .where('recycled_at', 'is', null)
      .execute();
  }

  /** What duplicate detection compares: the live invoices dated within the file's range. */
  liveEntryKeys(userId: number, from: string, to: string) {
    return this.db
      .selectFrom('entries')
      .select(['bill_name_key', 'date', 'amount_cents', 'services'])
      .where('user_id', '=', userId)
      .where('recycled_at', 'is', null)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .execute();
  }

  /** Takes `count` invoice numbers at once under the user row's lock; returns the first. */
  async reserveInvoiceNumbers(userId: number, count: number): Promise<number> {
    const row = await this.db
      .updateTable('users')
      .set({ last_invoice_number: sql`last_invoice_number + ${count}` })
      .where('id', '=', userId)
      .returning('last_invoice_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_invoice_number) - count + 1;
  }

  async insertImport(row: Insertable<ImportsTable>): Promise<number> {
    const inserted = await this.db.insertInto('imports').values(row).returning('id').executeTakeFirstOrThrow();
    return inserted.id;
  }

  insertBills(rows: Insertable<BillsTable>[]) {
    return this.bulk().insertBills(rows);
  }

  insertEntries(rows: NewEntry[], onChunk?: (done: number) => void) {
    return this.bulk().insertEntries(rows, onChunk);
  }

  insertPayments(rows: Insertable<PaymentsTable>[], onChunk?: (done: number) => void) {
    return this.bulk().insertPayments(rows, onChunk);
  }

  list(userId: number) {
    return this.db
      .selectFrom('imports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
  }

  /** The import row, locked until the transaction ends (two undos of one import run one after the other). */
  lockImport(userId: number, id: number) {
    return this.db
      .updateTable('imports')
      .set((eb) => ({ undone_at: eb.ref('undone_at') }))
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  markUndone(id: number, at: number) {
    return this.db.updateTable('imports').set({ undone_at: at }).where('id', '=', id).execute();
  }

  /** Entities the import created that hold no live invoice of anything else: they go to the bin whole. */
  ownEntities(userId: number, importId: number) {
    return this.db
      .selectFrom('bills as b')
      .select('b.id')
      .where('b.user_id', '=', userId)
      .where('b.import_id', '=', importId)
      .where('b.recycled_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('entries as e')
              .select('e.id')
              .whereRef('e.bill_id', '=', 'b.id')
              .where('e.recycled_at', 'is', null)
              .where((eb) => eb.or([eb('e.import_id', 'is', null), eb('e.import_id', '<>', importId)])),
          ),
        ),
      )
      .execute();
  }

  /** Deletes an entity with its live invoices and their payments, exactly as deleting it by hand does. */
  async recycleEntity(billId: number, at: number): Promise<void> {
    const bills = new BillsRepository(this.db);
    await bills.update(billId, { recycled_at: at });
    await bills.recycleLiveEntries(billId, at);
    await bills.recyclePaymentsOfCascadedEntries(billId, at);
  }

  /** Deletes the import's remaining live invoices (each with its live payments), as deleting each by hand does. */
  async recycleImportedEntries(userId: number, importId: number, at: number): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ recycled_at: at, recycled_cascade: 1 })
      .where('recycled_at', 'is', null)
      .where('entry_id', 'in', (eb) =>
        eb
          .selectFrom('entries')
          .select('id')
          .where('user_id', '=', userId)
          .where('import_id', '=', importId)
          .where('recycled_at', 'is', null),
      )
      .execute();
    await this.db
      .updateTable('entries')
      .set(recycledEntry(at, 0))
      .where('user_id', '=', userId)
      .where('import_id', '=', importId)
      .where('recycled_at', 'is', null)
      .execute();
  }
}
