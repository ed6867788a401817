import { type Insertable, type SqlBool, sql } from 'kysely';
import { isSqlite } from '../../db/database.ts';
import { NotificationEvents } from '../../db/notification-events.ts';
import { Repository } from '../../db/repository.ts';
import type { BillsTable, ImportsTable, NewEntry, PaymentsTable } from '../../db/schema.ts';
import { nextTurn } from '../../lib/turns.ts';
import { AccountDataRepository } from '../account-data/account-data.repository.ts';
import { BillsRepository } from '../bills/bills.repository.ts';
import { type CategoryBook, holdCategory, readCategoryBook } from '../categories/category-book.ts';
import { HistoryRepository } from '../history/history.repository.ts';
import { recycledEntry } from '../payment-totals/payment-totals.ts';
import { DataVersionRepository } from '../read-model/data-version.repository.ts';
import { addToRollups } from '../read-model/rollup-tables.ts';

/** Page cache of a bulk insert, in KiB (negative: a size, not a page count): docs/decisions/0903-import-speed.md. */
const BULK_CACHE_KIB = -32 * 1024;

/**
 * The SQLite row triggers of inserts into `entries` and `payments` (migrations `2026-11-23T00-00_rollups` and
 * `2026-11-29T02-00_entry_changes`) that `bulkWrite` replaces by grouped statements.
 */
const GROUPED_TRIGGERS = [
  'entries_rollup_insert',
  'entries_version_insert',
  'payments_rollup_insert',
  'payments_version_insert',
];

/** Reads for the import preview, bulk writes for its commit, and the undo of one import. */
export class ImportsRepository extends Repository {
  /** The bulk inserts, on the same connection (and transaction). */
  private bulk(): AccountDataRepository {
    return new AccountDataRepository(this.db);
  }

  /** The change history, on the same connection (and transaction), for writes at instant `at`. */
  /** The notification outbox, in this repository's transaction (docs/decisions/1150-notification-outbox.md). */
  notifications(): NotificationEvents {
    return new NotificationEvents(this.db);
  }

  history(at: number): HistoryRepository {
    return new HistoryRepository(this.db, at);
  }

  categoryBook(ledgerId: number): Promise<CategoryBook> {
    return readCategoryBook(this.db, ledgerId);
  }

  /** See `holdCategory`: the import's new entities keep the names they were given. */
  holdCategory(book: CategoryBook, name: string): Promise<string> {
    return holdCategory(this.db, book, name);
  }

  liveBills(ledgerId: number) {
    return this.db
      .selectFrom('bills')
      .select(['id', 'name', 'name_key', 'category', 'internal', 'status'])
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', 'is', null)
      .execute();
  }

  /**
   * What duplicate detection compares: the live invoices of these entities on these dates, each pair looked up
   * through `entries_live_bill_date`, so the cost follows the file's size, not the stored ledger's. The pairs go
   * as one parameter (a JSON array on SQLite, two arrays on PostgreSQL), sorted, so the index is walked in order.
   */
  liveEntriesAt(ledgerId: number, pairs: { billId: number; date: string }[]) {
    if (pairs.length === 0) return Promise.resolve([]);
    const sorted = [...pairs].sort((a, b) => a.billId - b.billId || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const probes = isSqlite(this.db)
      ? sql`(select value ->> 0 as bill_id, value ->> 1 as date from json_each(${JSON.stringify(sorted.map((p) => [p.billId, p.date]))})) k`
      : sql`unnest(${sorted.map((p) => p.billId)}::bigint[], ${sorted.map((p) => p.date)}::text[]) as k(bill_id, date)`;
    return sql<{ bill_name_key: string; date: string; amount_cents: number; services: string }>`
      select e.bill_name_key, e.date, e.amount_cents, e.services
      from ${probes} cross join entries e
      where e.ledger_id = ${ledgerId} and e.bill_id = k.bill_id and e.date = k.date and e.recycled_at is null`
      .execute(this.db)
      .then((r) => r.rows);
  }

  /**
   * Runs `work`, which only inserts the invoices and payments of import `importId`, as a bulk write. On SQLite:
   * - with a 32 MB page cache instead of the default 2 MB: the inserts add to each of the many indexes of `entries`
   *   at places spread over the whole index, and with the small cache those pages are evicted and read again
   *   many times over (the size is the connection's, and comes back afterwards);
   * - without the row triggers that add each new invoice and payment to the rollups, raise the data version and
   *   log the invoices written: one grouped statement per rollup table adds the import's rows afterwards, and the
   *   version rises once with the import's invoices logged under it (migration `2026-11-29T02-00_entry_changes`).
   *   Dropping and re-creating the triggers is part of the transaction: a failure rolls back to them, and no
   *   other writer can run in between (the transaction has held SQLite's write lock since its first write).
   * PostgreSQL keeps its triggers: they already run once per statement over all its rows, and dropping one there
   * would lock `entries` against every reader until the commit (docs/decisions/0903-import-speed.md).
   */
  async bulkWrite<T>(ledgerId: number, importId: number, work: () => Promise<T>): Promise<T> {
    if (!isSqlite(this.db)) return work();
    const [cache] = (await sql<{ cache_size: number }>`pragma cache_size`.execute(this.db)).rows;
    await sql.raw(`pragma cache_size = ${BULK_CACHE_KIB}`).execute(this.db);
    const triggers = await this.db
      .withTables<{ sqlite_master: { type: string; name: string; sql: string } }>()
      .selectFrom('sqlite_master')
      .select(['name', 'sql'])
      .where('type', '=', 'trigger')
      .where('name', 'in', GROUPED_TRIGGERS)
      .execute();
    for (const t of triggers) await sql`drop trigger ${sql.ref(t.name)}`.execute(this.db);
    try {
      const result = await work();
      const written = sql<SqlBool>`e.ledger_id = ${ledgerId} and e.import_id = ${importId}`;
      await addToRollups(this.db, written);
      await nextTurn();
      await new DataVersionRepository(this.db).raise(ledgerId, written);
      return result;
    } finally {
      // IF NOT EXISTS: an error that ended the transaction itself has already rolled back to the triggers.
      for (const t of triggers)
        await sql.raw(t.sql.replace(/^CREATE TRIGGER /i, 'CREATE TRIGGER IF NOT EXISTS ')).execute(this.db);
      await sql.raw(`pragma cache_size = ${Number(cache?.cache_size ?? -2000)}`).execute(this.db);
    }
  }

  /** Takes `count` invoice numbers at once under the ledger row's lock; returns the first. */
  async reserveInvoiceNumbers(ledgerId: number, count: number): Promise<number> {
    const row = await this.db
      .updateTable('ledgers')
      .set({ last_invoice_number: sql`last_invoice_number + ${count}` })
      .where('id', '=', ledgerId)
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

  list(ledgerId: number) {
    return this.db
      .selectFrom('imports')
      .selectAll()
      .where('ledger_id', '=', ledgerId)
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
  }

  /** The import row, locked until the transaction ends (two undos of one import run one after the other). */
  lockImport(ledgerId: number, id: number) {
    return this.db
      .updateTable('imports')
      .set((eb) => ({ undone_at: eb.ref('undone_at') }))
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .returningAll()
      .executeTakeFirst();
  }

  markUndone(id: number, at: number) {
    return this.db.updateTable('imports').set({ undone_at: at }).where('id', '=', id).execute();
  }

  /** Entities the import created that hold no live invoice of anything else: they go to the bin whole. */
  ownEntities(ledgerId: number, importId: number) {
    return this.db
      .selectFrom('bills as b')
      .select('b.id')
      .where('b.ledger_id', '=', ledgerId)
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

  /** Deletes an entity with its live invoices and their payments, exactly as deleting it by hand does; returns them. */
  async recycleEntity(billId: number, at: number) {
    const bills = new BillsRepository(this.db);
    const bill = await bills.update(billId, { recycled_at: at });
    const entries = await bills.recycleLiveEntries(billId, at);
    const payments = await bills.recyclePaymentsOfCascadedEntries(billId, at);
    return { bills: [bill], entries, payments };
  }

  /** Deletes the import's remaining live invoices (each with its live payments), as deleting each by hand does; returns them. */
  async recycleImportedEntries(ledgerId: number, importId: number, at: number) {
    const payments = await this.db
      .updateTable('payments')
      .set({ recycled_at: at, recycled_cascade: 1 })
      .where('recycled_at', 'is', null)
      .where('entry_id', 'in', (eb) =>
        eb
          .selectFrom('entries')
          .select('id')
          .where('ledger_id', '=', ledgerId)
          .where('import_id', '=', importId)
          .where('recycled_at', 'is', null),
      )
      .returningAll()
      .execute();
    const entries = await this.db
      .updateTable('entries')
      .set(recycledEntry(at, 0))
      .where('ledger_id', '=', ledgerId)
      .where('import_id', '=', importId)
      .where('recycled_at', 'is', null)
      .returningAll()
      .execute();
    return { entries, payments };
  }
}
