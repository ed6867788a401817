import type { Insertable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type {
  BillsTable,
  CategoriesTable,
  NewEntry,
  PaymentsTable,
  ScheduleOccurrencesTable,
  SchedulesTable,
} from '../../db/schema.ts';
import { nextTurn } from '../../lib/turns.ts';
import { type CategoryBook, readCategoryBook } from '../categories/category-book.ts';
import { HistoryRepository } from '../history/history.repository.ts';

/**
 * Rows per multi-row INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. The event loop
 * gets a turn after each (lib/turns.ts).
 */
const CHUNK = 500;
/**
 * Rows per INSERT of an account file's import: into a large database each statement (its indexes and triggers) holds
 * the event loop for its whole length, so the file's parts are written in shorter statements than a CSV commit's.
 */
export const FILE_ROWS_PER_STATEMENT = 100;
/** Rows per page of an export's reads: each page is one synchronous read on SQLite. */
const PAGE = 1_000;

/** Whole-account reads and bulk inserts for the account file (export and import). */
export class AccountDataRepository extends Repository {
  /** The change history, on the same connection (and transaction), for writes at instant `at`. */
  history(at: number): HistoryRepository {
    return new HistoryRepository(this.db, at);
  }

  categories(ledgerId: number) {
    return this.db.selectFrom('categories').selectAll().where('ledger_id', '=', ledgerId).orderBy('id').execute();
  }

  categoryBook(ledgerId: number): Promise<CategoryBook> {
    return readCategoryBook(this.db, ledgerId);
  }

  async insertCategories(rows: Insertable<CategoriesTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('categories').values(rows).execute();
  }

  bills(ledgerId: number) {
    return this.db.selectFrom('bills').selectAll().where('ledger_id', '=', ledgerId).orderBy('id').execute();
  }

  /**
   * The ledger's invoices in id order, the columns the file has, read a page at a time with a turn of the event loop
   * between pages.
   */
  entriesPaged(ledgerId: number) {
    return this.paged((after) =>
      this.db
        .selectFrom('entries')
        .select([
          'id',
          'bill_id',
          'invoice_number',
          'date',
          'flow',
          'amount_cents',
          'services',
          'due_date',
          'created_at',
          'recycled_at',
          'recycled_cascade',
        ])
        .where('ledger_id', '=', ledgerId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute(),
    );
  }

  /**
   * The ledger's payments in id order, the columns the file has, read a page at a time with a turn of the event loop
   * between pages.
   */
  paymentsPaged(ledgerId: number) {
    return this.paged((after) =>
      this.db
        .selectFrom('payments')
        .select([
          'id',
          'entry_id',
          'date',
          'amount_cents',
          'type',
          'medium',
          'notes',
          'autopay',
          'created_at',
          'recycled_at',
          'recycled_cascade',
        ])
        .where('ledger_id', '=', ledgerId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute(),
    );
  }

  /** Every row `page` reads, `PAGE` rows after the last id read at a time. */
  private async paged<R extends { id: number }>(page: (after: number) => Promise<R[]>): Promise<R[]> {
    const all: R[] = [];
    for (let after = 0; ; ) {
      const rows = await page(after);
      for (const row of rows) all.push(row);
      if (rows.length < PAGE) return all;
      after = (rows.at(-1) as R).id;
      await nextTurn();
    }
  }

  schedules(ledgerId: number) {
    return this.db.selectFrom('schedules').selectAll().where('ledger_id', '=', ledgerId).orderBy('id').execute();
  }

  /** The occurrences of the ledger's schedules, by schedule and then date. */
  occurrences(ledgerId: number) {
    return this.db
      .selectFrom('schedule_occurrences')
      .innerJoin('schedules', 'schedules.id', 'schedule_occurrences.schedule_id')
      .selectAll('schedule_occurrences')
      .where('schedules.ledger_id', '=', ledgerId)
      .orderBy('schedule_occurrences.schedule_id')
      .orderBy('schedule_occurrences.occurrence_date')
      .execute();
  }

  /** The ledger row, locked until the transaction ends (an import and a concurrent first write run one after the other). */
  lockLedger(ledgerId: number) {
    return this.db
      .updateTable('ledgers')
      .set((eb) => ({ last_invoice_number: eb.ref('last_invoice_number') }))
      .where('id', '=', ledgerId)
      .returning(['id', 'name', 'last_invoice_number'])
      .executeTakeFirstOrThrow();
  }

  async hasData(ledgerId: number): Promise<boolean> {
    const bill = await this.db
      .selectFrom('bills')
      .select('id')
      .where('ledger_id', '=', ledgerId)
      .limit(1)
      .executeTakeFirst();
    return bill !== undefined;
  }

  setLastInvoiceNumber(ledgerId: number, value: number) {
    return this.db.updateTable('ledgers').set({ last_invoice_number: value }).where('id', '=', ledgerId).execute();
  }

  /**
   * Inserts entities, `CHUNK` to a statement, and returns their new ids in the order of `rows` (ids grow in
   * insertion order, as for payments). A recycled entity may share a live one's name: the unique name index covers
   * live entities only, and the file's check keeps those unique.
   */
  async insertBills(rows: Insertable<BillsTable>[], chunk = CHUNK): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += chunk) {
      const inserted = await this.db
        .insertInto('bills')
        .values(rows.slice(i, i + chunk))
        .returning('id')
        .execute();
      ids.push(...inserted.map((row) => row.id).sort((a, b) => a - b));
      await nextTurn();
    }
    return ids;
  }

  /** Inserts the invoices and returns their new ids by invoice number (unique per ledger). */
  async insertEntries(rows: NewEntry[], onChunk?: (done: number) => void, chunk = CHUNK): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    for (let i = 0; i < rows.length; i += chunk) {
      const inserted = await this.db
        .insertInto('entries')
        .values(rows.slice(i, i + chunk))
        .returning(['id', 'invoice_number'])
        .execute();
      for (const row of inserted) ids.set(Number(row.invoice_number), row.id);
      onChunk?.(Math.min(i + chunk, rows.length));
      await nextTurn();
    }
    return ids;
  }

  /** Inserts the payments and returns their new ids in the order of `rows` (ids grow in insertion order). */
  async insertPayments(
    rows: Insertable<PaymentsTable>[],
    onChunk?: (done: number) => void,
    chunk = CHUNK,
  ): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += chunk) {
      const inserted = await this.db
        .insertInto('payments')
        .values(rows.slice(i, i + chunk))
        .returning('id')
        .execute();
      ids.push(...inserted.map((row) => row.id).sort((a, b) => a - b));
      onChunk?.(Math.min(i + chunk, rows.length));
      await nextTurn();
    }
    return ids;
  }

  /** Inserts one schedule and returns its id. */
  async insertSchedule(row: Insertable<SchedulesTable>): Promise<number> {
    const { id } = await this.db.insertInto('schedules').values(row).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  /** Inserts schedule occurrences, `CHUNK` to a statement with a turn of the event loop after each. */
  async insertOccurrences(rows: Insertable<ScheduleOccurrencesTable>[], chunk = CHUNK): Promise<void> {
    for (let i = 0; i < rows.length; i += chunk) {
      await this.db
        .insertInto('schedule_occurrences')
        .values(rows.slice(i, i + chunk))
        .execute();
      await nextTurn();
    }
  }
}
