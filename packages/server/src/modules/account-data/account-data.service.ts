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
import type { FileStore } from '../../lib/file-store.ts';
import { badRequest, conflict, HttpError } from '../../lib/http-error.ts';
import { firstAtOrAfter } from '../../lib/sorted.ts';
import { ByteReader, looksLikeTar, TAR_BLOCK, type TarEntry } from '../../lib/tar.ts';
import { nextTurn } from '../../lib/turns.ts';
import { bodyTooLarge } from '../../plugins/body.ts';
import { billNameKey, entryColumnsOf } from '../bills/bill.mapper.ts';
import type { HistoryRepository } from '../history/history.repository.ts';
import { derivePayment } from '../payment-totals/payment-totals.ts';
import { type AccountDataRepository, FILE_ROWS_PER_STATEMENT as ROWS } from './account-data.repository.ts';
import { type AccountFilePart, type NamedFile, readAccountFile } from './account-file-parser.ts';
import {
  type ArchiveLimits,
  checkFileLimits,
  type ReceivedFiles,
  readLedgerJson,
  receiveFiles,
  writeArchive,
} from './ledger-archive.ts';

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

/**
 * A ledger file being written: plain JSON text, or the ledger archive's bytes when the ledger has attached files
 * (docs/decisions/1160-ledger-archive.md); how to end its read early (idempotent); and the files its attachments name
 * that the store has lost (those attachments are left out).
 */
export interface AccountExport {
  kind: 'json' | 'tar';
  chunks: AsyncGenerator<string | Uint8Array>;
  close: () => Promise<void>;
  lost: string[];
}

/** Files looked up in the store at once while an export checks that the ledger's files are there. */
const HEAD_BATCH = 8;

export const FILES_NOT_CARRIED = (count: number) =>
  `The file names ${count} attached ${count === 1 ? 'file' : 'files'} but does not carry them: import the .tar archive the export gave, not its ledger.json alone.`;

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
    const at = firstAtOrAfter(this.ids, id, this.size);
    return at < this.size && this.ids[at] === id ? at + 1 : undefined;
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
    private readonly store: FileStore,
    private readonly limits: ArchiveLimits,
  ) {}

  /**
   * Everything the ledger holds as the file's JSON text, in the order of the contract's `accountFileV6` (the schema
   * the route documents), written as it is read: from a snapshot of the database (`AccountDataRepository.snapshot`:
   * the file is one consistent moment while others go on writing), the entities, invoices and payments in pages of
   * `EXPORT_PAGE_ROWS` by id, each page read only once the text before it has been taken, with a turn of the event
   * loop between steps. Memory stays bounded whatever the ledger's size: a page of rows and 8 bytes per row read
   * (the ids that later lists point at). The snapshot opens (and the ledger is read) before the first byte, so a
   * failure there is an ordinary error answer; it ends with the text, or at `close` (the download broken off).
   * docs/decisions/0706-limits-and-fairness.md. A ledger with attached files gets the ledger archive instead: the
   * same text as `ledger.json`, then the files (docs/decisions/1160-ledger-archive.md).
   */
  async openExport(ledgerId: number): Promise<AccountExport> {
    const { repo, close } = await this.repo.snapshot();
    try {
      const ledger = await repo.ledger(ledgerId);
      const at = this.now();
      const head = {
        format: ACCOUNT_FILE_FORMAT,
        version: ACCOUNT_FILE_VERSION,
        exportedAt: new Date(at).toISOString(),
        lastInvoiceNumber: Number(ledger.last_invoice_number),
        ledger: { name: ledger.name },
      };
      const { attachments, files, lost } = await this.storedAttachments(repo, ledgerId);
      const json = this.exportJson(repo, ledgerId, head, attachments, close);
      if (files.length === 0) return { kind: 'json', chunks: json, close, lost };
      return { kind: 'tar', chunks: writeArchive(json, files, this.store, at), close, lost };
    } catch (error) {
      await close();
      throw error;
    }
  }

  /**
   * The ledger's attachments whose files the store holds with their size, and those files once each; the keys of the
   * files it has lost (`npm run attachments:check` reports them too), whose attachments the file leaves out: it is
   * as good as the store, and it still imports.
   */
  private async storedAttachments(repo: AccountDataRepository, ledgerId: number) {
    const rows = await repo.attachments(ledgerId);
    const files = new Map<string, NamedFile>();
    for (const row of rows)
      files.set(row.file_key, {
        sha256: row.file_key,
        size: Number(row.size),
        contentType: row.content_type as NamedFile['contentType'],
      });
    const named = [...files.values()];
    const lost: string[] = [];
    for (let i = 0; i < named.length; i += HEAD_BATCH) {
      const batch = named.slice(i, i + HEAD_BATCH);
      const found = await Promise.all(batch.map((f) => this.store.head(f.sha256)));
      batch.forEach((f, j) => {
        if (found[j]?.size !== f.size) {
          lost.push(f.sha256);
          files.delete(f.sha256);
        }
      });
    }
    return { attachments: rows.filter((row) => files.has(row.file_key)), files: [...files.values()], lost };
  }

  private async *exportJson(
    repo: AccountDataRepository,
    ledgerId: number,
    head: object,
    attachments: Rows<'attachments'>,
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
      yield* list('attachments', 'attachments', onePage(Promise.resolve(attachments)), (a) => ({
        invoice: a.entry_id === null ? null : (entries.ref(a.entry_id) as number),
        payment: a.payment_id === null ? null : (payments.ref(a.payment_id) as number),
        fileName: a.file_name,
        contentType: a.content_type,
        size: Number(a.size),
        sha256: a.file_key,
        createdAt: iso(a.created_at) as string,
      }));
      yield '}';
    } finally {
      await close();
    }
  }

  /**
   * A ledger file as uploaded, told by its first bytes: the ledger archive (a tar of `ledger.json` and the files), or
   * the plain JSON of any version (held to `LIMIT_ACCOUNT_FILE_BYTES`, 413 beyond). Imported as `import` says.
   */
  async importUpload(
    actor: Actor,
    body: AsyncIterable<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<AccountImportSummary> {
    const reader = new ByteReader(body);
    if (looksLikeTar(await reader.peek(TAR_BLOCK))) {
      const { json, entries } = await readLedgerJson(reader, this.limits);
      return this.import(actor, readAccountFile(json), signal, entries);
    }
    const limit = this.limits.accountFileBytes;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of reader.chunks(limit + 1)) {
      size += chunk.length;
      if (size > limit) throw bodyTooLarge(limit);
      chunks.push(chunk);
    }
    return this.import(actor, readAccountFile(Buffer.concat(chunks, size)), signal);
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
   *
   * The attached files come from the archive's `files` entries (docs/decisions/1160-ledger-archive.md): once the
   * file is checked and the ledger found empty, each is received into a temp file and checked against the
   * attachments (`receiveFiles`), and only when all have come are they moved into the store, before the import's
   * ledger is opened. The attachment rows are the last part. A plain JSON file whose attachments name files is refused. If the import then fails, the files
   * it added to the store and no row names are removed again.
   */
  async import(
    actor: Actor,
    parts: AsyncIterable<AccountFilePart>,
    signal?: AbortSignal,
    archive?: AsyncGenerator<TarEntry>,
  ): Promise<AccountImportSummary> {
    const stream = parts[Symbol.asyncIterator]();
    let received: ReceivedFiles | null = null;
    const added: string[] = [];
    try {
      const first = await stream.next();
      if (first.done || !('head' in first.value)) throw new Error('an account file starts with its head');
      const { head } = first.value;
      const at = this.now();
      // What the account refuses is answered before anything is written, and checked again in the last step.
      if (await this.repo.hasData(actor.ledgerId)) throw conflict(ACCOUNT_NOT_EMPTY);
      const { nameOf } = await categoriesOfFile(this.repo, actor.ledgerId, head);
      if (archive) {
        checkFileLimits(head.files, head.attachmentBytes, this.limits);
        received = await receiveFiles(archive, head.files, this.store.tempDir);
        await this.storeFiles(head.files, received, added);
      } else if (head.files.length > 0) throw badRequest(FILES_NOT_CARRIED(head.files.length), 'INVALID_FILE');
      const staging = await this.repo.openImport(at);
      try {
        await this.writeParts(staging, actor, head, nameOf, stream, at, signal);
        if (signal?.aborted) throw CONNECTION_CLOSED();
        return await this.repo.transaction(async (repo) => {
          const target = await repo.lockLedger(actor.ledgerId);
          if (!target) throw ACCOUNT_IMPORT_INTERRUPTED();
          if (await repo.hasData(target.id)) throw conflict(ACCOUNT_NOT_EMPTY);
          const categories = (await categoriesOfFile(repo, target.id, head)).added;
          await repo.insertCategories(
            categories.map((c) => ({
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
            categories: categories.length,
            attachments: counts.attachments,
          };
        });
      } catch (error) {
        // Should this fail too (the database closing), the next start removes it (removeUnfinishedImports). Gone
        // already, it was removed under the import (by the start of another process): the database's refusal of
        // the next part is that.
        const removedHere = await this.repo.removeImport(staging).catch(() => true);
        throw removedHere || error instanceof HttpError ? error : ACCOUNT_IMPORT_INTERRUPTED();
      }
    } catch (error) {
      await this.forget(added);
      throw error;
    } finally {
      await stream.return?.(undefined);
      await archive?.return(undefined);
      await received?.remove();
    }
  }

  /**
   * Moves the received files into the store, adding to `added` each key it did not hold before as soon as it is
   * stored: a failed import takes those back, a failure storing a later file included.
   */
  private async storeFiles(files: readonly NamedFile[], received: ReceivedFiles, added: string[]): Promise<void> {
    for (const file of files) {
      const temp = received.temps.get(file.sha256) as string;
      const held = await this.store.head(file.sha256);
      await this.store.put(file.sha256, temp, file.size);
      received.temps.delete(file.sha256);
      if (!held) added.push(file.sha256);
    }
  }

  /**
   * Removes files a failed import added to the store that no attachment names. Another upload of the same bytes
   * stores its file before it inserts its row: such a file would wrongly go here, and the check then reports its
   * attachment as missing (docs/decisions/1160-ledger-archive.md).
   */
  private async forget(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const named = await this.repo.keysNamed(keys);
    for (const key of keys) if (!named.has(key)) await this.store.remove(key);
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
    let attachmentsDone = 0;

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
      } else if ('attachments' in part) {
        const rows = part.attachments.map((a) => ({
          ledger_id: ledgerId,
          entry_id: a.invoice === null ? null : (entryIds[a.invoice] as number),
          payment_id: a.payment === null ? null : (paymentIds[a.payment] as number),
          file_key: a.sha256,
          file_name: a.fileName,
          content_type: a.contentType,
          size: a.size,
          created_by: actor.userId,
          created_at: ms(a.createdAt) as number,
        }));
        await step((repo) => repo.insertAttachments(rows, ROWS));
        attachmentsDone += part.attachments.length;
        published(part.attachments.length, 'attachments');
      }
      // Between two parts' transactions, whatever else the server has to do.
      await nextTurn();
    }
    if (
      entities.length !== counts.entities ||
      invoicesDone !== counts.invoices ||
      paymentsDone !== counts.payments ||
      schedulesDone !== counts.schedules ||
      attachmentsDone !== counts.attachments
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
