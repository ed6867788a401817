import {
  type ColumnMapping,
  type ImportOptions,
  type ImportPreview,
  type ImportRow,
  type ImportSummary,
  PREVIEW_ROWS,
} from '@billfold/contract/imports';
import { splitMethod } from '@billfold/contract/payment-methods';
import type { Selectable } from 'kysely';
import type { ImportsTable, NewEntry } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';
import { entryColumnsOf } from '../bills/bill.mapper.ts';
import type { CategoryBook } from '../categories/category-book.ts';
import { csvCellText } from '../entries/entries-export.ts';
import { derivePayment } from '../payment-totals/payment-totals.ts';
import { type CsvFile, type CsvLimits, readCsv } from './csv-file.ts';
import {
  detectDateFormat,
  detectMapping,
  isOwnExport,
  layoutName,
  lineList,
  mappingProblems,
} from './import-mapping.ts';
import { type Candidate, duplicateKey, interpretRow } from './import-rows.ts';
import { IMPORT_MESSAGES } from './imports.messages.ts';
import type { ImportsRepository } from './imports.repository.ts';

type ImportRowDb = Selectable<ImportsTable>;

/** Progress of a commit when its rows are written; adding them to the rollups takes the rest (ADR 0903). */
const WRITTEN_SHARE = 0.95;
/** Rows read between two turns of the event loop while a file is checked. */
const CHECK_STEP = 1_000;
/** Rows written between two progress reports. */
const PROGRESS_STEP = 2_000;
type Bill = Awaited<ReturnType<ImportsRepository['liveBills']>>[number];

interface Analysis {
  headers: string[];
  /** Data rows in the file (also when a mapping problem stopped the rows from being read). */
  recordCount: number;
  mapping: ColumnMapping;
  ownExport: boolean;
  problems: string[];
  rows: ImportRow[];
  /** Rows without errors, with their duplicate flag (`rows[i]` and `candidates` share line numbers). */
  candidates: { candidate: Candidate; row: ImportRow }[];
  bills: Map<string, Bill>;
  /** The ledger's own categories, which a row's category may name (docs/decisions/0105-categories-of-your-own.md). */
  categories: CategoryBook;
}

function toSummary(r: ImportRowDb): ImportSummary {
  return {
    id: r.id,
    fileName: r.file_name,
    createdAt: timestamp(r.created_at) as string,
    invoices: r.invoice_count,
    payments: r.payment_count,
    entitiesCreated: r.entity_count,
    skippedDuplicates: r.skipped_count,
    undoneAt: timestamp(r.undone_at),
  };
}

/** Text of an ISO instant for the API (`2026-11-22T10:04:05`, UTC). */
const timestamp = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString().slice(0, 19));

/**
 * CSV import (docs/decisions/0902-csv-import.md): `preview` reads the file and reports every row without writing;
 * `commit` reads it again with the confirmed mapping and writes it in one transaction, or nothing; `undo` sends one
 * import's invoices (and the entities it created) to the recycle bin together.
 */
export class ImportsService {
  constructor(
    private readonly repo: ImportsRepository,
    private readonly now: () => number,
    private readonly limits: CsvLimits,
  ) {}

  /** The file read (and held to the CSV limits) before any database work, so no transaction waits for it. */
  private read(bytes: Uint8Array): Promise<CsvFile> {
    return readCsv(bytes, this.limits);
  }

  private async analyze(
    repo: ImportsRepository,
    ledgerId: number,
    file: CsvFile,
    sent: ColumnMapping | null,
  ): Promise<Analysis> {
    const bills = new Map((await repo.liveBills(ledgerId)).map((b) => [b.name_key, b]));
    const categories = await repo.categoryBook(ledgerId);
    const a: Analysis = {
      headers: file.headers,
      recordCount: file.records.length,
      mapping: sent ?? detectMapping(file.headers),
      ownExport: isOwnExport(file.headers),
      problems: [],
      rows: [],
      candidates: [],
      bills,
      categories,
    };
    a.problems.push(...mappingProblems(a.mapping, file.headers.length));
    if (a.problems.length > 0) return a;

    const dateColumn = a.mapping.date as number;
    const detection = detectDateFormat(file.records.map((r) => ({ line: r.line, text: r.cells[dateColumn] ?? '' })));
    if ('mixed' in detection) {
      // Which rows are written which way, so the user knows what to fix (docs/decisions/0902-csv-import.md).
      const layouts = detection.mixed.map(
        (l) =>
          `${l.lines.length === 1 ? '1 row' : `${l.lines.length} rows`} like "${l.example}" (${layoutName(l.shape)}) on ${lineList(l.lines)}`,
      );
      a.problems.push(`The dates mix formats: ${layouts.join('; ')}. Use one date format throughout the file.`);
      return a;
    }
    const dateFormat = a.mapping.dateFormat ?? ('format' in detection ? detection.format : 'YYYY-MM-DD');
    a.mapping = { ...a.mapping, dateFormat };

    // The lines whose date the format does not read, for one line naming them all (each row says it too, but the
    // table may show few of them).
    const unread: number[] = [];
    for (const [i, record] of file.records.entries()) {
      // Other requests get the event loop between steps of a large file.
      if (i > 0 && i % CHECK_STEP === 0) await nextTurn();
      const cells = a.ownExport ? record.cells.map(csvCellText) : record.cells;
      const { row, candidate, dateUnread } = interpretRow(record.line, cells, a.mapping, dateFormat, (text) =>
        categories.resolve(text),
      );
      if (dateUnread) unread.push(record.line);
      if (candidate) {
        const bill = bills.get(candidate.entityKey);
        if (bill?.status === 0)
          row.errors.push(`Entity "${bill.name}" is archived; unarchive it to import invoices for it.`);
        else {
          // An internal entity's invoices are expenses; a new entity is internal when its row says so.
          if (bill?.internal === 1) candidate.flow = 'internal';
          row.flow = candidate.flow;
          if (bill) row.category = bill.category;
          a.candidates.push({ candidate, row });
        }
      }
      a.rows.push(row);
    }
    if (unread.length > 0) {
      a.problems.push(
        `${unread.length === 1 ? '1 date is' : `${unread.length} dates are`} not in the format ${dateFormat} on ${lineList(unread)}. Fix ${unread.length === 1 ? 'it' : 'them'} in the file, or choose another date format in the mapping.`,
      );
    }
    await this.flagDuplicates(repo, ledgerId, a);
    return a;
  }

  /** Same entity, date, amount and description as an earlier row of the file, or as a live stored invoice. */
  private async flagDuplicates(repo: ImportsRepository, ledgerId: number, a: Analysis) {
    // Only entities that exist can have stored invoices: one lookup per (entity, date) of theirs in the file.
    const pairs = new Map<string, { billId: number; date: string }>();
    for (const { candidate } of a.candidates) {
      const bill = a.bills.get(candidate.entityKey);
      if (bill) pairs.set(`${bill.id}\u0000${candidate.date}`, { billId: bill.id, date: candidate.date });
    }
    const stored = new Set(
      (await repo.liveEntriesAt(ledgerId, [...pairs.values()])).map((e) =>
        duplicateKey(e.bill_name_key, e.date, Number(e.amount_cents), e.services),
      ),
    );
    const seen = new Set<string>();
    for (const { candidate: c, row } of a.candidates) {
      const key = duplicateKey(c.entityKey, c.date, c.amountCents, c.description);
      if (stored.has(key)) row.duplicate = 'stored';
      else if (seen.has(key)) row.duplicate = 'file';
      seen.add(key);
    }
  }

  async preview(ledgerId: number, fileName: string, bytes: Uint8Array, options: ImportOptions): Promise<ImportPreview> {
    const a = await this.analyze(this.repo, ledgerId, await this.read(bytes), options.mapping);
    const errorCount = a.rows.filter((r) => r.errors.length > 0).length;
    const duplicateCount = a.candidates.filter((c) => c.row.duplicate !== null).length;
    const newEntities = new Map<string, string>();
    for (const { candidate } of a.candidates)
      if (!a.bills.has(candidate.entityKey) && !newEntities.has(candidate.entityKey))
        newEntities.set(candidate.entityKey, candidate.entity);
    const shown = a.rows.filter((r, i) => i < PREVIEW_ROWS || r.errors.length > 0 || r.duplicate !== null);
    return {
      fileName,
      headers: a.headers,
      mapping: a.mapping,
      ownExport: a.ownExport,
      rowCount: a.recordCount,
      errorCount,
      duplicateCount,
      newEntities: [...newEntities.values()],
      problems: a.problems,
      rows: shown.slice(0, PREVIEW_ROWS * 5),
    };
  }

  /**
   * Writes every row that has no error and is not an unkept duplicate, in one transaction: entities first, then
   * invoices with their stored payment totals, then one payment per paid row. Refused whole (nothing written)
   * when the mapping or any row has a problem. `onProgress` gets the share done (0..1): 0 once the file has passed
   * every check, then the rows written (up to `WRITTEN_SHARE`), then 1 when the rollups are added. The commit waits for
   * each report, so the caller can let the answer reach the client before the next rows are written.
   */
  async commit(
    actor: Actor,
    fileName: string,
    bytes: Uint8Array,
    options: ImportOptions,
    onProgress: (share: number) => Promise<void> | void = () => {},
  ): Promise<ImportSummary> {
    const { ledgerId } = actor;
    const file = await this.read(bytes);
    return this.repo.transaction(async (repo) => {
      await repo.reserveInvoiceNumbers(ledgerId, 0); // the ledger row's lock: imports into one ledger run one at a time
      const a = await this.analyze(repo, ledgerId, file, options.mapping);
      if (a.problems.length > 0) throw badRequest(a.problems.join(' '), 'INVALID_FILE');
      const failed = a.rows.filter((r) => r.errors.length > 0);
      if (failed.length > 0) {
        const first = failed
          .slice(0, 3)
          .map((r) => `line ${r.line}: ${r.errors.join(' ')}`)
          .join('; ');
        throw badRequest(
          `${failed.length} ${failed.length === 1 ? 'row has' : 'rows have'} errors, so nothing was imported (${first}).`,
          'INVALID_FILE',
        );
      }
      const keep = new Set(options.keep);
      const chosen = a.candidates.filter(({ row }) => row.duplicate === null || keep.has(row.line));
      const skipped = a.candidates.length - chosen.length;
      if (chosen.length === 0) throw badRequest(IMPORT_MESSAGES.nothingToImport);
      await onProgress(0);
      const now = this.now();

      const fresh = new Map<string, Candidate>();
      for (const { candidate } of chosen)
        if (!a.bills.has(candidate.entityKey) && !fresh.has(candidate.entityKey))
          fresh.set(candidate.entityKey, candidate);
      const paidRows = chosen.filter(({ candidate }) => candidate.paidCents > 0).length;
      const record = {
        ledger_id: ledgerId,
        file_name: fileName,
        created_at: now,
        invoice_count: chosen.length,
        payment_count: paidRows,
        entity_count: fresh.size,
        skipped_count: skipped,
        undone_at: null,
      };
      const importId = await repo.insertImport(record);
      // Each item's history starts with its `import`, one multi-row insert per step (ADR 0108).
      const history = repo.history(now);
      const held = new Map<string, string>();
      for (const c of fresh.values())
        if (!held.has(c.category)) held.set(c.category, await repo.holdCategory(a.categories, c.category));
      const newBills = [...fresh.values()].map((c) => ({
        ledger_id: ledgerId,
        name: c.entity,
        name_key: c.entityKey,
        category: held.get(c.category) ?? c.category,
        internal: c.flow === 'internal' ? 1 : 0,
        status: 1,
        recycled_at: null,
        created_at: now,
        import_id: importId,
      }));
      const billIds = await repo.insertBills(newBills);
      await history.recordMany(
        'bill',
        actor.userId,
        'import',
        newBills.map((b, i) => ({ id: billIds[i] as number, before: null, after: b })),
      );
      const bills = new Map<string, { id: number } & Parameters<typeof entryColumnsOf>[0]>(a.bills);
      newBills.forEach((b, i) => {
        bills.set(b.name_key, { ...b, id: billIds[i] as number });
      });

      const total = chosen.length + paidRows;
      const first = await repo.reserveInvoiceNumbers(ledgerId, chosen.length);
      const entries: NewEntry[] = chosen.map(({ candidate: c }, i) => {
        const bill = bills.get(c.entityKey) as NonNullable<ReturnType<typeof bills.get>>;
        const paid = c.paidCents;
        return {
          ledger_id: ledgerId,
          bill_id: bill.id,
          invoice_number: first + i,
          date: c.date,
          flow: c.flow === 'income' && bill.internal !== 1 ? 'INCOMING' : 'OUTGOING',
          amount_cents: c.amountCents,
          services: c.description,
          due_date: c.dueDate,
          ...derivePayment(c.amountCents, paid, paid > 0 ? 1 : 0),
          ...entryColumnsOf(bill),
          created_at: now,
          import_id: importId,
        };
      });
      await repo.bulkWrite(ledgerId, importId, async () => {
        const ids = new Map<number, number>();
        for (let i = 0; i < entries.length; i += PROGRESS_STEP) {
          const step = entries.slice(i, i + PROGRESS_STEP);
          const stepIds = await repo.insertEntries(step);
          for (const [n, id] of stepIds) ids.set(n, id);
          const items = step.map((e) => ({
            id: stepIds.get(Number(e.invoice_number)) as number,
            before: null,
            after: e,
          }));
          await history.recordMany('entry', actor.userId, 'import', items);
          await onProgress((Math.min(i + PROGRESS_STEP, entries.length) / total) * WRITTEN_SHARE);
        }
        const payments = chosen
          .map(({ candidate: c }, i) => ({ c, entryId: ids.get(first + i) as number }))
          .filter(({ c }) => c.paidCents > 0)
          .map(({ c, entryId }) => {
            const [type, medium] = splitMethod(c.method);
            return {
              ledger_id: ledgerId,
              entry_id: entryId,
              date: c.date,
              amount_cents: c.paidCents,
              type,
              medium,
              notes: '',
              autopay: 0,
              recycled_at: null,
              created_at: now,
            };
          });
        for (let i = 0; i < payments.length; i += PROGRESS_STEP) {
          const step = payments.slice(i, i + PROGRESS_STEP);
          const stepIds = await repo.insertPayments(step);
          await history.recordMany(
            'payment',
            actor.userId,
            'import',
            step.map((p, j) => ({ id: stepIds[j] as number, before: null, after: p })),
          );
          await onProgress(((entries.length + Math.min(i + PROGRESS_STEP, payments.length)) / total) * WRITTEN_SHARE);
        }
      });
      const events = repo.notifications();
      await events.record(
        { ledgerId },
        'import_finished',
        async () => {
          const ledger = await events.ledgerName(ledgerId);
          const by = await events.username(actor.userId);
          return {
            key: `import_finished:${importId}`,
            title: `Import finished: ${fileName}`,
            body: `${by ?? 'A member'} imported ${fileName} into ${ledger}: ${record.invoice_count} invoices, ${record.payment_count} payments, ${record.entity_count} new entities, ${record.skipped_count} duplicates skipped.`,
            data: {
              ledgerId,
              ledgerName: ledger,
              importId,
              fileName,
              invoices: record.invoice_count,
              payments: record.payment_count,
              entities: record.entity_count,
              skipped: record.skipped_count,
            },
          };
        },
        now,
      );
      await onProgress(1);
      return toSummary({ id: importId, ...record });
    });
  }

  async list(ledgerId: number): Promise<ImportSummary[]> {
    return (await this.repo.list(ledgerId)).map(toSummary);
  }

  /**
   * Sends the import to the recycle bin as one deletion (one instant): entities it created and nothing else uses
   * go whole, with their invoices; its other invoices go one by one, each with its payments. What the user already
   * deleted stays as it is. Restoring happens from the recycle bin, item by item.
   */
  undo(actor: Actor, importId: number): Promise<ImportSummary> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const row = await repo.lockImport(ledgerId, importId);
      if (!row) throw notFound(IMPORT_MESSAGES.notFound);
      if (row.undone_at !== null) throw conflict(IMPORT_MESSAGES.alreadyUndone);
      const at = this.now();
      const history = repo.history(at);
      for (const bill of await repo.ownEntities(ledgerId, importId))
        await history.binMovesOf(actor.userId, 'recycle', await repo.recycleEntity(bill.id, at));
      await history.binMovesOf(actor.userId, 'recycle', await repo.recycleImportedEntries(ledgerId, importId, at));
      await repo.markUndone(importId, at);
      return toSummary({ ...row, undone_at: at });
    });
  }
}
