import { channel } from 'node:diagnostics_channel';
import { ACCOUNT_FILE_FORMAT, ACCOUNT_FILE_VERSION, type AccountImportSummary } from '@billfold/contract/account-file';
import {
  categoryKey,
  categoryLabel,
  isBuiltInCategory,
  MAX_OWN_CATEGORIES,
  normalizeCategory,
} from '@billfold/contract/categories';
import { centsToDecimalString, toCents } from '@billfold/contract/money';
import type { Cadence } from '@billfold/contract/schedule-dates';
import type { AmountMode } from '@billfold/contract/schedules';
import type { Actor } from '../../lib/actor.ts';
import { badRequest, conflict, HttpError } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';
import { billNameKey, entryColumnsOf } from '../bills/bill.mapper.ts';
import type { HistoryRepository } from '../history/history.repository.ts';
import { derivePayment } from '../payment-totals/payment-totals.ts';
import { type AccountDataRepository, FILE_ROWS_PER_STATEMENT as ROWS } from './account-data.repository.ts';
import type { AccountFilePart } from './account-file-parser.ts';

export const ACCOUNT_NOT_EMPTY =
  'Import needs an empty account: this account already has entities or invoices (including ones in the recycle bin).';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const ms = (text: string | null) => (text === null ? null : Date.parse(text));
/** The file's decimal strings are validated by the schema, so they always convert. */
const cents = (text: string) => toCents(text) as number;

/**
 * The import's own ledger, or the account's, went while the import wrote (a start of another server process
 * removes unfinished imports; the ledger was deleted): nothing is stored.
 */
const ACCOUNT_IMPORT_INTERRUPTED = () =>
  new HttpError(
    503,
    'The import was interrupted by another change to this account and nothing was stored: send the file again.',
    { 'retry-after': '1' },
    'SERVICE_UNAVAILABLE',
  );

/** The client went away before the import's last step: nothing is stored (nobody reads the answer). */
const CONNECTION_CLOSED = () => badRequest('The connection closed before the import ended: nothing was stored.');

/**
 * `billfold:account-import:part`: each part of an account file the import has written (`{ kind, items }`), for
 * whoever subscribes through `node:diagnostics_channel` (the tests); nothing is built when no one listens.
 */
export const IMPORT_PART_CHANNEL = 'billfold:account-import:part';
const importParts = channel(IMPORT_PART_CHANNEL);
const published = (items: number, kind: string) => {
  if (importParts.hasSubscribers) importParts.publish({ kind, items });
};

/** Items written between two turns of the event loop while a file is built or read. */
const STEP = 2_000;

type Rows<K extends keyof AccountDataRepository> = AccountDataRepository[K] extends (
  ...args: never[]
) => Promise<infer R>
  ? R
  : never;

/**
 * `billfold:account-export:page`: each page of rows an export has read from its snapshot (`{ table, rows }`), for
 * whoever subscribes through `node:diagnostics_channel` (the tests); nothing is built when no one listens.
 */
export const EXPORT_PAGE_CHANNEL = 'billfold:account-export:page';
const exportPages = channel(EXPORT_PAGE_CHANNEL);

/** An account export being written: its text in pieces, and how to end its read early (idempotent). */
export interface AccountExport {
  chunks: AsyncGenerator<string>;
  close: () => Promise<void>;
}

/**
 * Row ids in ascending order as an export reads them, 8 bytes each: a row's `ref` in the file is its position + 1,
 * found by binary search (a `Map` would cost ten times the memory for a million invoices).
 */
class RefsById {
  private ids = new Float64Array(1_024);
  size = 0;

  add(id: number): number {
    if (this.size === this.ids.length) {
      const more = new Float64Array(this.ids.length * 2);
      more.set(this.ids);
      this.ids = more;
    }
    this.ids[this.size++] = id;
    return this.size;
  }

  ref(id: number): number | undefined {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.ids[mid] as number;
      if (at === id) return mid + 1;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }
}

/**
 * `,"name":[…]` from pages of rows as they are read, written `STEP` items at a time with a turn of the event loop
 * between steps; the next page is read only when the text before it has been taken.
 */
async function* list<T>(
  name: string,
  table: string,
  pages: AsyncIterable<readonly T[]>,
  map: (row: T) => unknown,
): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const page of pages) {
    if (exportPages.hasSubscribers) exportPages.publish({ table, rows: page.length });
    for (let i = 0; i < page.length; i += STEP) {
      const part: string[] = [];
      for (let j = i; j < Math.min(i + STEP, page.length); j++) part.push(JSON.stringify(map(page[j] as T)));
      yield (first ? '' : ',') + part.join(',');
      first = false;
      await nextTurn();
    }
  }
  yield ']';
}

/** One page of everything a small read returns. */
async function* onePage<T>(rows: Promise<T[]>): AsyncGenerator<T[]> {
  yield await rows;
}

/** The whole-account file (docs/decisions/0901-account-file.md): export, and import into an empty account. */
export class AccountDataService {
  constructor(
    private readonly repo: AccountDataRepository,
    private readonly now: () => number,
  ) {}

  /**
   * Everything the ledger holds as the file's JSON text, in the order of the contract's `accountFileV4` (the schema
   * the route documents), written as it is read: from a snapshot of the database (`AccountDataRepository.snapshot`:
   * the file is one consistent moment while others go on writing), the entities, invoices and payments in pages of
   * `EXPORT_PAGE_ROWS` by id, each page read only once the text before it has been taken, with a turn of the event
   * loop between steps. Memory stays bounded whatever the ledger's size: a page of rows and 8 bytes per row read
   * (the ids that later lists point at). The snapshot opens (and the ledger is read) before the first byte, so a
   * failure there is an ordinary error answer; it ends with the text, or at `close` (the download broken off).
   * docs/decisions/0706-limits-and-fairness.md.
   */
  async openExport(ledgerId: number): Promise<AccountExport> {
    const { repo, close } = await this.repo.snapshot();
    try {
      const ledger = await repo.ledger(ledgerId);
      const head = {
        format: ACCOUNT_FILE_FORMAT,
        version: ACCOUNT_FILE_VERSION,
        exportedAt: new Date(this.now()).toISOString(),
        lastInvoiceNumber: Number(ledger.last_invoice_number),
        ledger: { name: ledger.name },
      };
      return { chunks: this.exportJson(repo, ledgerId, head, close), close };
    } catch (error) {
      await close();
      throw error;
    }
  }

  private async *exportJson(
    repo: AccountDataRepository,
    ledgerId: number,
    head: object,
    close: () => Promise<void>,
  ): AsyncGenerator<string> {
    try {
      const bills = new RefsById();
      const entries = new RefsById();
      const payments = new RefsById();
      yield JSON.stringify(head).slice(0, -1);
      yield* list('categories', 'categories', onePage(repo.categories(ledgerId)), (c) => ({
        name: c.name,
        flow: c.flow === 'income' ? ('income' as const) : ('expense' as const),
        retired: c.retired_at !== null,
        createdAt: iso(c.created_at) as string,
      }));
      yield* list('entities', 'bills', repo.billsPaged(ledgerId), (b) => ({
        ref: bills.add(b.id),
        name: b.name,
        category: categoryLabel(b.category),
        internal: b.internal === 1,
        archived: b.status === 0,
        createdAt: iso(b.created_at) as string,
        deletedAt: iso(b.recycled_at),
      }));
      yield* list('invoices', 'entries', repo.entriesPaged(ledgerId), (e) => ({
        ref: entries.add(e.id),
        entity: bills.ref(e.bill_id) as number,
        number: Number(e.invoice_number),
        date: e.date,
        flow: e.flow === 'INCOMING' ? ('income' as const) : ('expense' as const),
        amount: centsToDecimalString(e.amount_cents),
        description: e.services,
        ...(e.due_date === null ? {} : { dueDate: e.due_date }),
        ...(e.estimate_cents === null ? {} : { estimate: centsToDecimalString(Number(e.estimate_cents)) }),
        ...(e.estimated === 1 ? { estimated: true as const } : {}),
        createdAt: iso(e.created_at) as string,
        deletedAt: iso(e.recycled_at),
        deletedWithEntity: e.recycled_cascade === 1,
      }));
      yield* list('payments', 'payments', repo.paymentsPaged(ledgerId), (p) => ({
        ref: payments.add(p.id),
        invoice: entries.ref(p.entry_id) as number,
        date: p.date,
        amount: centsToDecimalString(p.amount_cents),
        method: `${p.type}|${p.medium}`,
        notes: p.notes,
        autopay: p.autopay === 1,
        createdAt: iso(p.created_at) as string,
        deletedAt: iso(p.recycled_at),
        deletedWithInvoice: p.recycled_cascade === 1,
      }));
      const occurrences = new Map<number, Rows<'occurrences'>[number][]>();
      for (const o of await repo.occurrences(ledgerId)) {
        const list = occurrences.get(o.schedule_id);
        if (list) list.push(o);
        else occurrences.set(o.schedule_id, [o]);
      }
      let schedules = 0;
      yield* list('schedules', 'schedules', onePage(repo.schedules(ledgerId)), (s) => ({
        ref: ++schedules,
        entity: bills.ref(s.bill_id) as number,
        cadence: s.cadence as Cadence,
        interval: s.interval,
        dayOfMonth: s.day_of_month,
        firstDate: s.first_date,
        endDate: s.end_date,
        count: s.max_count,
        amount: centsToDecimalString(s.amount_cents),
        amountMode: s.amount_mode as AmountMode,
        averageOf: s.amount_of,
        flow: s.flow === 'INCOMING' ? ('income' as const) : ('expense' as const),
        description: s.template,
        dueDays: s.due_days,
        autopay: s.autopay_method,
        paused: s.paused === 1,
        nextDate: s.next_date,
        createdAt: iso(s.created_at) as string,
        occurrences: (occurrences.get(s.id) ?? []).map((o) => ({
          date: o.occurrence_date,
          invoice: o.entry_id === null ? null : (entries.ref(o.entry_id) ?? null),
          autopayDate: o.autopay_date,
          payment: o.payment_id === null ? null : (payments.ref(o.payment_id) ?? null),
          createdAt: iso(o.created_at) as string,
        })),
      }));
      yield '}';
    } finally {
      await close();
    }
  }

  /**
   * Writes a ledger file into the request's ledger, all or nothing: the account must hold no entity yet (an invoice
   * always has one). The head arrives once the whole file has been checked (`readAccountFile`), before anything is
   * written. The parts that follow (entities, invoices, payments, schedules and their occurrences) are written as
   * they come into a ledger of the import's own that nobody sees (no member, `importing_since` set), each part in a
   * transaction of its own and in multi-row INSERTs of `FILE_ROWS_PER_STATEMENT` rows with a turn of the event loop
   * between them: no transaction, and no commit, grows with the file. One short last transaction checks that the
   * account is still empty, adds the file's categories and makes that ledger the account's (`takeOver`). A failure
   * at any point, or `signal` (the client gone) before the last step, removes the import's ledger, leaving the
   * account as it was; one left by a crash goes at the next start (`removeUnfinishedImports`).
   * docs/decisions/0707-account-import-in-steps.md. Stored payment totals are derived from the live payments, as
   * every write path does; the rollup tables follow through their triggers.
   */
  async import(
    actor: Actor,
    parts: AsyncIterable<AccountFilePart>,
    signal?: AbortSignal,
  ): Promise<AccountImportSummary> {
    const stream = parts[Symbol.asyncIterator]();
    try {
      const first = await stream.next();
      if (first.done || !('head' in first.value)) throw new Error('an account file starts with its head');
      const { head } = first.value;
      const at = this.now();
      // What the account refuses is answered before anything is written, and checked again in the last step.
      if (await this.repo.hasData(actor.ledgerId)) throw conflict(ACCOUNT_NOT_EMPTY);
      const { nameOf } = await categoriesOfFile(this.repo, actor.ledgerId, head);
      const staging = await this.repo.openImport(at);
      try {
        await this.writeParts(staging, actor, head, nameOf, stream, at, signal);
        if (signal?.aborted) throw CONNECTION_CLOSED();
        return await this.repo.transaction(async (repo) => {
          const target = await repo.lockLedger(actor.ledgerId);
          if (!target) throw ACCOUNT_IMPORT_INTERRUPTED();
          if (await repo.hasData(target.id)) throw conflict(ACCOUNT_NOT_EMPTY);
          const { added } = await categoriesOfFile(repo, target.id, head);
          await repo.insertCategories(
            added.map((c) => ({
              ledger_id: target.id,
              name: c.name,
              name_key: categoryKey(c.name),
              flow: c.flow,
              retired_at: c.retired ? ms(c.createdAt) : null,
              created_at: ms(c.createdAt) as number,
            })),
          );
          if (!(await repo.takeOver(staging, target, head.lastInvoiceNumber))) throw ACCOUNT_IMPORT_INTERRUPTED();
          const { counts } = head;
          return {
            entities: counts.entities,
            invoices: counts.invoices,
            payments: counts.payments,
            schedules: counts.schedules,
            categories: added.length,
          };
        });
      } catch (error) {
        // Should this fail too (the database closing), the next start removes it (removeUnfinishedImports). Gone
        // already, it was removed under the import (by the start of another process): the database's refusal of
        // the next part is that.
        const removedHere = await this.repo.removeImport(staging).catch(() => true);
        throw removedHere || error instanceof HttpError ? error : ACCOUNT_IMPORT_INTERRUPTED();
      }
    } finally {
      await stream.return?.(undefined);
    }
  }

  /** The parts after the head, each written into the import's ledger `ledgerId` in a transaction of its own. */
  private async writeParts(
    ledgerId: number,
    actor: Actor,
    head: FileHead,
    categoryOf: (name: string) => string,
    stream: AsyncIterator<AccountFilePart>,
    at: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    // Each item's history starts with its `import`, one multi-row insert per part (ADR 0108).
    const step = <T>(work: (repo: AccountDataRepository, history: HistoryRepository) => Promise<T>) =>
      this.repo.transaction((repo) => work(repo, repo.history(at)));

    // One number per written row, by its position in the file: what later parts point at. Set once a part's
    // transaction has committed (one that the database aborted runs again from the start).
    const { counts } = head;
    const entities: { id: number; columns: ReturnType<typeof entryColumnsOf> }[] = [];
    const entryIds = new Float64Array(counts.invoices);
    const paymentIds = new Float64Array(counts.payments);
    const scheduleIds = new Float64Array(counts.schedules);
    let invoicesDone = 0;
    let paymentsDone = 0;
    let schedulesDone = 0;

    for (let next = await stream.next(); !next.done; next = await stream.next()) {
      if (signal?.aborted) throw CONNECTION_CLOSED();
      const part = next.value;
      if ('entities' in part) {
        const rows = part.entities.map((e) => ({
          ledger_id: ledgerId,
          name: e.name,
          name_key: billNameKey(e.name),
          category: categoryOf(e.category),
          internal: e.internal ? 1 : 0,
          status: e.archived ? 0 : 1,
          recycled_at: ms(e.deletedAt),
          created_at: ms(e.createdAt) as number,
        }));
        const ids = await step(async (repo, history) => {
          const ids = await repo.insertBills(rows, ROWS);
          const items = rows.map((row, i) => ({ id: ids[i] as number, before: null, after: row }));
          await history.recordMany('bill', actor.userId, 'import', items);
          return ids;
        });
        for (const [i, row] of rows.entries()) entities.push({ id: ids[i] as number, columns: entryColumnsOf(row) });
        published(part.entities.length, 'entities');
      } else if ('invoices' in part) {
        const rows = part.invoices.map((inv) => {
          const entity = entities[inv.entity] as (typeof entities)[number];
          const amount = cents(inv.amount);
          return {
            ledger_id: ledgerId,
            bill_id: entity.id,
            invoice_number: inv.number,
            date: inv.date,
            flow: inv.flow === 'income' ? ('INCOMING' as const) : ('OUTGOING' as const),
            amount_cents: amount,
            services: inv.description,
            due_date: inv.dueDate ?? null,
            estimate_cents: inv.estimate === undefined ? null : cents(inv.estimate),
            estimated: inv.estimated ? 1 : 0,
            ...derivePayment(amount, inv.paidCents, inv.paidCount),
            ...entity.columns,
            recycled_at: ms(inv.deletedAt),
            recycled_cascade: inv.deletedWithEntity ? 1 : 0,
            created_at: ms(inv.createdAt) as number,
          };
        });
        const ids = await step(async (repo, history) => {
          const ids = await repo.insertEntries(rows, undefined, ROWS);
          const items = rows.map((row) => ({ id: ids.get(row.invoice_number) as number, before: null, after: row }));
          await history.recordMany('entry', actor.userId, 'import', items);
          return ids;
        });
        for (const row of rows) entryIds[invoicesDone++] = ids.get(row.invoice_number) as number;
        published(rows.length, 'invoices');
      } else if ('payments' in part) {
        const rows = part.payments.map((p) => {
          const [type = '', medium = ''] = p.method.split('|');
          return {
            ledger_id: ledgerId,
            entry_id: entryIds[p.invoice] as number,
            date: p.date,
            amount_cents: cents(p.amount),
            type,
            medium,
            notes: p.notes,
            autopay: p.autopay ? 1 : 0,
            recycled_at: ms(p.deletedAt),
            recycled_cascade: p.deletedWithInvoice ? 1 : 0,
            created_at: ms(p.createdAt) as number,
          };
        });
        const ids = await step(async (repo, history) => {
          const ids = await repo.insertPayments(rows, undefined, ROWS);
          const items = rows.map((row, i) => ({ id: ids[i] as number, before: null, after: row }));
          await history.recordMany('payment', actor.userId, 'import', items);
          return ids;
        });
        for (const id of ids) paymentIds[paymentsDone++] = id;
        published(rows.length, 'payments');
      } else if ('schedules' in part) {
        const ids = await step(async (repo) => {
          const ids: number[] = [];
          for (const s of part.schedules) {
            ids.push(
              await repo.insertSchedule({
                ledger_id: ledgerId,
                bill_id: (entities[s.entity] as (typeof entities)[number]).id,
                cadence: s.cadence,
                interval: s.interval,
                day_of_month: s.dayOfMonth,
                first_date: s.firstDate,
                end_date: s.endDate,
                max_count: s.count,
                amount_cents: cents(s.amount),
                amount_mode: s.amountMode,
                amount_of: s.averageOf,
                flow: s.flow === 'income' ? 'INCOMING' : 'OUTGOING',
                template: s.description,
                due_days: s.dueDays,
                autopay_method: s.autopay,
                paused: s.paused ? 1 : 0,
                next_date: s.nextDate,
                created_count: s.occurrenceCount,
                created_at: ms(s.createdAt) as number,
              }),
            );
          }
          return ids;
        });
        for (const id of ids) scheduleIds[schedulesDone++] = id;
        published(part.schedules.length, 'schedules');
      } else if ('occurrences' in part) {
        const rows = part.occurrences.map((o) => ({
          schedule_id: scheduleIds[o.schedule] as number,
          occurrence_date: o.date,
          entry_id: o.invoice === null ? null : (entryIds[o.invoice] as number),
          autopay_date: o.autopayDate,
          payment_id: o.payment === null ? null : (paymentIds[o.payment] as number),
          created_at: ms(o.createdAt) as number,
        }));
        await step((repo) => repo.insertOccurrences(rows, ROWS));
        published(part.occurrences.length, 'occurrences');
      }
      // Between two parts' transactions, whatever else the server has to do.
      await nextTurn();
    }
    if (
      entities.length !== counts.entities ||
      invoicesDone !== counts.invoices ||
      paymentsDone !== counts.payments ||
      schedulesDone !== counts.schedules
    )
      throw new Error('the account file ended before all its parts were written');
  }
}

type FileHead = Extract<AccountFilePart, { head: unknown }>['head'];

/**
 * The file's own categories against the account's: the ones to add (the account has none of the same name, case
 * and spacing aside) and the name each of the file's entities takes (the account's own spelling where it has the
 * category). Refused when the account would have more than `MAX_OWN_CATEGORIES`.
 */
async function categoriesOfFile(repo: AccountDataRepository, ledgerId: number, head: FileHead) {
  const book = await repo.categoryBook(ledgerId);
  const added = head.categories.filter((c) => !book.find(c.name));
  if (book.own.length + added.length > MAX_OWN_CATEGORIES)
    throw conflict(
      `The file has ${added.length} categories this account does not have; with its ${book.own.length} that is more than ${MAX_OWN_CATEGORIES}.`,
      'TOO_MANY_CATEGORIES',
    );
  const names = new Map(head.categories.map((c) => [categoryKey(c.name), book.find(c.name)?.name ?? c.name]));
  const nameOf = (name: string) =>
    isBuiltInCategory(name) ? normalizeCategory(name) : (names.get(categoryKey(name)) ?? normalizeCategory(name));
  return { added, nameOf };
}
