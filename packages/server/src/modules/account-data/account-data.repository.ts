import { type Insertable, sql } from 'kysely';
import { openSnapshot } from '../../db/database.ts';
import { removeImport } from '../../db/ledger-imports.ts';
import { Repository } from '../../db/repository.ts';
import type {
  AttachmentsTable,
  BillsTable,
  CategoriesTable,
  Database,
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
/**
 * The tables whose rows belong to the ledger itself, not to the data an account file carries: when an import's
 * ledger takes the account's ledger's place, they pass to it (`takeOver`). Every other table with a `ledger_id` is
 * written by the import (docs/decisions/0707-account-import-in-steps.md; `test/account-import-steps.test.ts`
 * checks that every table is one or the other).
 */
export const LEDGER_OWN_TABLES = [
  'ledger_members',
  'ledger_invitations',
  'categories',
  'imports',
  'api_tokens',
  'ledger_forecasts',
  'bill_readings',
] as const;
/** Rows per page of an export's reads: each page is one synchronous read on SQLite. */
export const EXPORT_PAGE_ROWS = 1_000;
/** Ids an export's read walks at most per statement (about 3 ms on SQLite, rows of other ledgers included). */
const EXPORT_ID_WINDOW = 20_000;
/** The fewest ids a read walks, however slow reads are. */
const EXPORT_ID_WINDOW_MIN = 200;
/** How long one export read should take; a slower one narrows the next read's window of ids. */
export const EXPORT_READ_MS = 20;

/**
 * The window of ids the next read walks, from the last one's and how long it took: scaled toward `EXPORT_READ_MS`,
 * at most doubling, between `EXPORT_ID_WINDOW_MIN` and `EXPORT_ID_WINDOW`. Reads slow down by ten to a hundred times
 * while SQLite's WAL is large (an account import of a hundred megabytes just committed, not yet checkpointed, finds
 * each page through hundreds of WAL index blocks): a fixed window then held the event loop for 300–700 ms a read.
 */
export function nextExportWindow(window: number, ms: number): number {
  const scaled = ms > 0 ? Math.floor((window * EXPORT_READ_MS) / ms) : EXPORT_ID_WINDOW;
  return Math.max(EXPORT_ID_WINDOW_MIN, Math.min(EXPORT_ID_WINDOW, window * 2, scaled));
}
/**
 * `+ledger_id`: the ledger's rows found along the primary key (walking ids in order) rather than through an index
 * led by `ledger_id`, which SQLite would pick and then sort the whole ledger for every page (60–280 ms a page at a
 * million invoices, against 3 ms).
 */
const byRowOrder = sql<number>`+ledger_id`;

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

  /**
   * This repository reading from a snapshot of the database (db/database.ts, `openSnapshot`): every read through
   * it sees the moment of its first read, while other requests go on writing; `close` ends it.
   */
  async snapshot(): Promise<{ repo: AccountDataRepository; close: () => Promise<void> }> {
    const snapshot = await openSnapshot(this.db);
    const repo: AccountDataRepository = Object.assign(Object.create(Object.getPrototypeOf(this)), this, {
      db: snapshot.db,
    });
    return { repo, close: snapshot.close };
  }

  /** The ledger's name and the last invoice number it handed out. */
  ledger(ledgerId: number) {
    return this.db
      .selectFrom('ledgers')
      .select(['name', 'last_invoice_number'])
      .where('id', '=', ledgerId)
      .executeTakeFirstOrThrow();
  }

  /** The ledger's entities in id order, a page at a time. */
  billsPaged(ledgerId: number) {
    return this.pages('bills', (after, upTo) =>
      this.db
        .selectFrom('bills')
        .selectAll()
        .where(byRowOrder, '=', ledgerId)
        .where('id', '>', after)
        .where('id', '<=', upTo)
        .orderBy('id')
        .limit(EXPORT_PAGE_ROWS)
        .execute(),
    );
  }

  /** The ledger's invoices in id order, the columns the file has, a page at a time. */
  entriesPaged(ledgerId: number) {
    return this.pages('entries', (after, upTo) =>
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
          'estimate_cents',
          'estimated',
          'created_at',
          'recycled_at',
          'recycled_cascade',
        ])
        .where(byRowOrder, '=', ledgerId)
        .where('id', '>', after)
        .where('id', '<=', upTo)
        .orderBy('id')
        .limit(EXPORT_PAGE_ROWS)
        .execute(),
    );
  }

  /** The ledger's payments in id order, the columns the file has, a page at a time. */
  paymentsPaged(ledgerId: number) {
    return this.pages('payments', (after, upTo) =>
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
        .where(byRowOrder, '=', ledgerId)
        .where('id', '>', after)
        .where('id', '<=', upTo)
        .orderBy('id')
        .limit(EXPORT_PAGE_ROWS)
        .execute(),
    );
  }

  /**
   * The rows `page` reads in id order, each page read only when the caller asks for it (keyset pagination): at most
   * `EXPORT_PAGE_ROWS` rows with ids in (`after`, `upTo`], a window of ids walked by the primary key (at most
   * `EXPORT_ID_WINDOW`, narrowed while reads are slow: `nextExportWindow`), up to the table's largest id at the first
   * read. So each statement does a bounded amount of work whatever the ledger's size, its share of the table or the
   * state of the WAL; an empty window is followed by a turn of the event loop, a full one by the caller's.
   */
  private async *pages<R extends { id: number }>(
    table: 'bills' | 'entries' | 'payments',
    page: (after: number, upTo: number) => Promise<R[]>,
  ): AsyncGenerator<R[]> {
    const last = await this.db
      .selectFrom(table)
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const lastId = Number(last?.id ?? 0);
    let window = EXPORT_ID_WINDOW;
    for (let after = 0; after < lastId; ) {
      const upTo = Math.min(after + window, lastId);
      const started = performance.now();
      const rows = await page(after, upTo);
      window = nextExportWindow(window, performance.now() - started);
      after = rows.length === EXPORT_PAGE_ROWS ? (rows.at(-1) as R).id : upTo;
      if (rows.length > 0) yield rows;
      else await nextTurn();
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

  /** The ledger's attachments in id order, those of items in the recycle bin included. */
  attachments(ledgerId: number) {
    return this.db
      .selectFrom('attachments')
      .select(['id', 'entry_id', 'payment_id', 'file_key', 'file_name', 'content_type', 'size', 'created_at'])
      .where('ledger_id', '=', ledgerId)
      .orderBy('id')
      .execute();
  }

  /** Inserts attachment rows, `chunk` to a statement with a turn of the event loop after each. */
  insertAttachments(rows: Insertable<AttachmentsTable>[], chunk = CHUNK): Promise<void> {
    return this.insertChunked('attachments', rows, chunk);
  }

  /** Which of these file keys an attachment row (of any ledger) names. */
  async keysNamed(keys: readonly string[]): Promise<Set<string>> {
    const named = new Set<string>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('attachments')
        .select('file_key')
        .distinct()
        .where('file_key', 'in', keys.slice(i, i + CHUNK))
        .execute();
      for (const row of rows) named.add(row.file_key);
    }
    return named;
  }

  /**
   * The ledger row, locked until the transaction ends (an import's last step and a concurrent first write run one
   * after the other); undefined when it is gone.
   */
  lockLedger(ledgerId: number) {
    return this.db
      .updateTable('ledgers')
      .set((eb) => ({ last_invoice_number: eb.ref('last_invoice_number') }))
      .where('id', '=', ledgerId)
      .where('importing_since', 'is', null)
      .returning(['id', 'name', 'personal_user_id', 'created_at', 'last_invoice_number'])
      .executeTakeFirst();
  }

  /** A ledger for an import to write (`importing_since` set, no member: seen by nobody); its id. */
  async openImport(at: number): Promise<number> {
    const row = await this.db
      .insertInto('ledgers')
      .values({ name: '', personal_user_id: null, created_at: at, importing_since: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /**
   * Makes the import's ledger `staging` the account's in place of `target` (call inside the import's last
   * transaction, `target` locked and empty): it takes the target's name, creation time, personal owner and invoice
   * counter (or the file's, if higher), and the target's own rows (`LEDGER_OWN_TABLES`) pass to it; the target goes.
   * False when `staging` is no longer there (removed by a start of another process: docs/decisions/0707-account-import-in-steps.md).
   */
  async takeOver(
    staging: number,
    target: NonNullable<Awaited<ReturnType<AccountDataRepository['lockLedger']>>>,
    lastInvoiceNumber: number,
  ): Promise<boolean> {
    // The personal ledger's owner is unique: the target lets go of it first.
    await this.db.updateTable('ledgers').set({ personal_user_id: null }).where('id', '=', target.id).execute();
    const taken = await this.db
      .updateTable('ledgers')
      .set({
        name: target.name,
        personal_user_id: target.personal_user_id,
        created_at: target.created_at,
        last_invoice_number: Math.max(Number(target.last_invoice_number), lastInvoiceNumber),
        importing_since: null,
      })
      .where('id', '=', staging)
      .where('importing_since', 'is not', null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return false;
    for (const table of LEDGER_OWN_TABLES) {
      await this.db.updateTable(table).set({ ledger_id: staging }).where('ledger_id', '=', target.id).execute();
    }
    // The target's change log has no foreign key; its data versions and rollups go with it (cascade).
    await this.db.deleteFrom('entry_changes').where('ledger_id', '=', target.id).execute();
    await this.db.deleteFrom('ledgers').where('id', '=', target.id).execute();
    // A version the ledger never had before: anything read of it before this moment counts as stale.
    await this.db
      .insertInto('ledger_data_versions')
      .values({ ledger_id: staging, version: 1 })
      .onConflict((oc) => oc.column('ledger_id').doUpdateSet({ version: sql`ledger_data_versions.version + 1` }))
      .execute();
    return true;
  }

  /**
   * Removes a ledger an import was writing, in short steps (db/ledger-imports.ts); never one made the account's.
   * False when it was gone already.
   */
  removeImport(ledgerId: number): Promise<boolean> {
    return removeImport(this.db, ledgerId);
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
  insertOccurrences(rows: Insertable<ScheduleOccurrencesTable>[], chunk = CHUNK): Promise<void> {
    return this.insertChunked('schedule_occurrences', rows, chunk);
  }

  /** Rows of a table whose new ids no one needs, `chunk` to a statement with a turn of the event loop after each. */
  private async insertChunked<T extends 'attachments' | 'schedule_occurrences'>(
    table: T,
    rows: Insertable<Database[T]>[],
    chunk: number,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += chunk) {
      await this.db
        .insertInto(table)
        .values(rows.slice(i, i + chunk) as never)
        .execute();
      await nextTurn();
    }
  }
}
