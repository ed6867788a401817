import type { Insertable, Selectable } from 'kysely';
import { Repository } from '../../db/repository.ts';
import type {
  BillsTable,
  CategoriesTable,
  Database,
  EntriesTable,
  NewEntry,
  PaymentsTable,
  ScheduleOccurrencesTable,
  SchedulesTable,
} from '../../db/schema.ts';
import { nextTurn } from '../../lib/turns.ts';
import { type CategoryBook, readCategoryBook } from '../categories/category-book.ts';

/**
 * Rows per multi-row INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. The event loop
 * gets a turn after each (lib/turns.ts).
 */
const CHUNK = 500;
/** Rows per page of an export's reads. */
const PAGE = 5_000;

/** Whole-account reads and bulk inserts for the account file (export and import). */
export class AccountDataRepository extends Repository {
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

  /** The ledger's invoices in id order, read a page at a time with a turn of the event loop between pages. */
  entriesPaged(ledgerId: number): Promise<Selectable<EntriesTable>[]> {
    return this.paged('entries', ledgerId);
  }

  /** The ledger's payments in id order, read a page at a time with a turn of the event loop between pages. */
  paymentsPaged(ledgerId: number): Promise<Selectable<PaymentsTable>[]> {
    return this.paged('payments', ledgerId);
  }

  /**
   * Every row of the ledger's in `table`, in id order: pages of `PAGE` rows after the last id read. Kysely types a query
   * over a union of table names as holding the columns of all of them, so the rows are named by `T` again.
   */
  private async paged<T extends 'entries' | 'payments'>(
    table: T,
    ledgerId: number,
  ): Promise<Selectable<Database[T]>[]> {
    const all: Selectable<Database[T]>[] = [];
    for (let after = 0; ; ) {
      const rows = (await this.db
        .selectFrom(table as 'entries' | 'payments')
        .selectAll()
        .where('ledger_id', '=', ledgerId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute()) as Selectable<Database[T]>[];
      for (const row of rows) all.push(row);
      if (rows.length < PAGE) return all;
      after = (rows.at(-1) as { id: number }).id;
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

  /** Inserts the entities one by one (a recycled entity may share its name), returning their new ids in order. */
  async insertBills(rows: Insertable<BillsTable>[]): Promise<number[]> {
    const ids: number[] = [];
    for (const row of rows) {
      const inserted = await this.db.insertInto('bills').values(row).returning('id').executeTakeFirstOrThrow();
      ids.push(inserted.id);
      if (ids.length % CHUNK === 0) await nextTurn();
    }
    return ids;
  }

  /** Inserts the invoices and returns their new ids by invoice number (unique per ledger). */
  async insertEntries(rows: NewEntry[], onChunk?: (done: number) => void): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    for (let i = 0; i < rows.length; i += CHUNK) {
      const inserted = await this.db
        .insertInto('entries')
        .values(rows.slice(i, i + CHUNK))
        .returning(['id', 'invoice_number'])
        .execute();
      for (const row of inserted) ids.set(Number(row.invoice_number), row.id);
      onChunk?.(Math.min(i + CHUNK, rows.length));
      await nextTurn();
    }
    return ids;
  }

  /** Inserts the payments and returns their new ids in the order of `rows` (ids grow in insertion order). */
  async insertPayments(rows: Insertable<PaymentsTable>[], onChunk?: (done: number) => void): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const inserted = await this.db
        .insertInto('payments')
        .values(rows.slice(i, i + CHUNK))
        .returning('id')
        .execute();
      ids.push(...inserted.map((row) => row.id).sort((a, b) => a - b));
      onChunk?.(Math.min(i + CHUNK, rows.length));
      await nextTurn();
    }
    return ids;
  }

  /** Inserts one schedule and its occurrences. */
  async insertSchedule(
    row: Insertable<SchedulesTable>,
    occurrences: Omit<Insertable<ScheduleOccurrencesTable>, 'schedule_id'>[],
  ): Promise<void> {
    const { id } = await this.db.insertInto('schedules').values(row).returning('id').executeTakeFirstOrThrow();
    for (let i = 0; i < occurrences.length; i += CHUNK) {
      const chunk = occurrences.slice(i, i + CHUNK).map((o) => ({ ...o, schedule_id: id }));
      await this.db.insertInto('schedule_occurrences').values(chunk).execute();
      await nextTurn();
    }
  }
}
