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
import type { Actor } from '../../lib/actor.ts';
import { conflict, HttpError } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';
import { billNameKey, entryColumnsOf } from '../bills/bill.mapper.ts';
import { derivePayment } from '../payment-totals/payment-totals.ts';
import { type AccountDataRepository, FILE_ROWS_PER_STATEMENT as ROWS } from './account-data.repository.ts';
import type { AccountFilePart } from './account-file-parser.ts';

export const ACCOUNT_NOT_EMPTY =
  'Import needs an empty account: this account already has entities or invoices (including ones in the recycle bin).';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const ms = (text: string | null) => (text === null ? null : Date.parse(text));
/** The file's decimal strings are validated by the schema, so they always convert. */
const cents = (text: string) => toCents(text) as number;

/** The database aborted the import's transaction after its first part (a deadlock): nothing is stored. */
const ACCOUNT_IMPORT_INTERRUPTED = () =>
  new HttpError(
    503,
    'The import was interrupted by another change to this account and nothing was stored: send the file again.',
    { 'retry-after': '1' },
    'SERVICE_UNAVAILABLE',
  );

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

/** What an export reads in its transaction; `exportJson` writes it out afterwards. */
export interface ExportData {
  exportedAt: number;
  /** The ledger's name, which the file carries (version 4). */
  ledgerName: string;
  lastInvoiceNumber: number;
  categories: Rows<'categories'>;
  bills: Rows<'bills'>;
  entries: Rows<'entriesPaged'>;
  payments: Rows<'paymentsPaged'>;
  schedules: Rows<'schedules'>;
  occurrences: Rows<'occurrences'>;
}

/** `ref`s are 1, 2, 3… in id order: a map from each row's id to its ref, built a step at a time. */
async function refsOf(rows: readonly { id: number }[]): Promise<Map<number, number>> {
  const refs = new Map<number, number>();
  for (let i = 0; i < rows.length; i++) {
    refs.set((rows[i] as { id: number }).id, i + 1);
    if ((i + 1) % (STEP * 10) === 0) await nextTurn();
  }
  return refs;
}

/** `,"name":[…]`, a part of `STEP` items at a time, with a turn of the event loop between parts. */
async function* list<T>(
  name: string,
  rows: readonly T[],
  map: (row: T, index: number) => unknown,
): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  for (let i = 0; i < rows.length; i += STEP) {
    const part: string[] = [];
    for (let j = i; j < Math.min(i + STEP, rows.length); j++) part.push(JSON.stringify(map(rows[j] as T, j)));
    yield (i === 0 ? '' : ',') + part.join(',');
    await nextTurn();
  }
  yield ']';
}

/** The whole-account file (docs/decisions/0901-account-file.md): export, and import into an empty account. */
export class AccountDataService {
  constructor(
    private readonly repo: AccountDataRepository,
    private readonly now: () => number,
  ) {}

  /**
   * Everything the ledger holds, read in one transaction so the file is one consistent moment. The invoices and
   * payments are read in pages with a turn of the event loop between them (`AccountDataRepository`).
   */
  exportData(ledgerId: number): Promise<ExportData> {
    return this.repo.transaction(async (repo) => {
      const ledger = await repo.lockLedger(ledgerId);
      return {
        exportedAt: this.now(),
        ledgerName: ledger.name,
        lastInvoiceNumber: Number(ledger.last_invoice_number),
        categories: await repo.categories(ledgerId),
        bills: await repo.bills(ledgerId),
        entries: await repo.entriesPaged(ledgerId),
        payments: await repo.paymentsPaged(ledgerId),
        schedules: await repo.schedules(ledgerId),
        occurrences: await repo.occurrences(ledgerId),
      };
    });
  }

  /**
   * The file's JSON text in pieces, in the order of the contract's `accountFileV4` (the schema the route
   * documents), each list written a part at a time with a turn of the event loop between parts, so a file of a
   * million invoices never holds the process up while it is built or sent.
   */
  async *exportJson(data: ExportData): AsyncGenerator<string> {
    const billRef = await refsOf(data.bills);
    const entryRef = await refsOf(data.entries);
    const paymentRef = await refsOf(data.payments);
    const occurrences = new Map<number, (typeof data.occurrences)[number][]>();
    for (const o of data.occurrences) {
      const list = occurrences.get(o.schedule_id);
      if (list) list.push(o);
      else occurrences.set(o.schedule_id, [o]);
    }
    const head = {
      format: ACCOUNT_FILE_FORMAT,
      version: ACCOUNT_FILE_VERSION,
      exportedAt: new Date(data.exportedAt).toISOString(),
      lastInvoiceNumber: data.lastInvoiceNumber,
      ledger: { name: data.ledgerName },
    };
    yield JSON.stringify(head).slice(0, -1);
    yield* list('categories', data.categories, (c) => ({
      name: c.name,
      flow: c.flow === 'income' ? ('income' as const) : ('expense' as const),
      retired: c.retired_at !== null,
      createdAt: iso(c.created_at) as string,
    }));
    yield* list('entities', data.bills, (b, i) => ({
      ref: i + 1,
      name: b.name,
      category: categoryLabel(b.category),
      internal: b.internal === 1,
      archived: b.status === 0,
      createdAt: iso(b.created_at) as string,
      deletedAt: iso(b.recycled_at),
    }));
    yield* list('invoices', data.entries, (e, i) => ({
      ref: i + 1,
      entity: billRef.get(e.bill_id) as number,
      number: Number(e.invoice_number),
      date: e.date,
      flow: e.flow === 'INCOMING' ? ('income' as const) : ('expense' as const),
      amount: centsToDecimalString(e.amount_cents),
      description: e.services,
      ...(e.due_date === null ? {} : { dueDate: e.due_date }),
      createdAt: iso(e.created_at) as string,
      deletedAt: iso(e.recycled_at),
      deletedWithEntity: e.recycled_cascade === 1,
    }));
    yield* list('payments', data.payments, (p, i) => ({
      ref: i + 1,
      invoice: entryRef.get(p.entry_id) as number,
      date: p.date,
      amount: centsToDecimalString(p.amount_cents),
      method: `${p.type}|${p.medium}`,
      notes: p.notes,
      autopay: p.autopay === 1,
      createdAt: iso(p.created_at) as string,
      deletedAt: iso(p.recycled_at),
      deletedWithInvoice: p.recycled_cascade === 1,
    }));
    yield* list('schedules', data.schedules, (s, i) => ({
      ref: i + 1,
      entity: billRef.get(s.bill_id) as number,
      cadence: s.cadence as Cadence,
      interval: s.interval,
      dayOfMonth: s.day_of_month,
      firstDate: s.first_date,
      endDate: s.end_date,
      count: s.max_count,
      amount: centsToDecimalString(s.amount_cents),
      flow: s.flow === 'INCOMING' ? ('income' as const) : ('expense' as const),
      description: s.template,
      dueDays: s.due_days,
      autopay: s.autopay_method,
      paused: s.paused === 1,
      nextDate: s.next_date,
      createdAt: iso(s.created_at) as string,
      occurrences: (occurrences.get(s.id) ?? []).map((o) => ({
        date: o.occurrence_date,
        invoice: o.entry_id === null ? null : (entryRef.get(o.entry_id) ?? null),
        autopayDate: o.autopay_date,
        payment: o.payment_id === null ? null : (paymentRef.get(o.payment_id) ?? null),
        createdAt: iso(o.created_at) as string,
      })),
    }));
    yield '}';
  }

  /**
   * Writes a ledger file into the request's ledger part by part as `parts` hands them over (the head first, then
   * entities, invoices, payments, schedules and their occurrences: `readAccountFile`), all in one transaction, or
   * nothing: the account must hold no entity yet (an invoice always has one). The head arrives once the whole file
   * has been checked, before the transaction starts (a refused file never holds the database); each part is
   * written in multi-row INSERTs of `FILE_ROWS_PER_STATEMENT` rows with a turn of the event loop between them, so only a part or two of the file is
   * in memory at once, and a failure in any part rolls every part back. Stored payment totals are derived from the
   * live payments, as every write path does; the rollup tables follow through their triggers.
   */
  async import(actor: Actor, parts: AsyncIterable<AccountFilePart>): Promise<AccountImportSummary> {
    const stream = parts[Symbol.asyncIterator]();
    const first = await stream.next();
    if (first.done || !('head' in first.value)) throw new Error('an account file starts with its head');
    const { head } = first.value;
    let begun = false;
    try {
      return await this.repo.transaction(async (repo) => {
        // The parts cannot be read twice: a transaction the database aborted after the first part is not retried.
        if (begun) throw ACCOUNT_IMPORT_INTERRUPTED();
        begun = true;
        return this.write(repo, actor, head, stream);
      });
    } finally {
      await stream.return?.(undefined);
    }
  }

  private async write(
    repo: AccountDataRepository,
    actor: Actor,
    head: Extract<AccountFilePart, { head: unknown }>['head'],
    stream: AsyncIterator<AccountFilePart>,
  ): Promise<AccountImportSummary> {
    const { ledgerId } = actor;
    const ledger = await repo.lockLedger(ledgerId);
    if (await repo.hasData(ledgerId)) throw conflict(ACCOUNT_NOT_EMPTY);
    // Each item's history starts with its `import`, one multi-row insert per part (ADR 0108).
    const history = repo.history(this.now());

    // The file's own categories join the account's: one the account already has (same name, case and spacing
    // aside) is kept as it is, and the file's entities take its name.
    const book = await repo.categoryBook(ledgerId);
    const added = head.categories.filter((c) => !book.find(c.name));
    if (book.own.length + added.length > MAX_OWN_CATEGORIES)
      throw conflict(
        `The file has ${added.length} categories this account does not have; with its ${book.own.length} that is more than ${MAX_OWN_CATEGORIES}.`,
        'TOO_MANY_CATEGORIES',
      );
    await repo.insertCategories(
      added.map((c) => ({
        ledger_id: ledgerId,
        name: c.name,
        name_key: categoryKey(c.name),
        flow: c.flow,
        retired_at: c.retired ? ms(c.createdAt) : null,
        created_at: ms(c.createdAt) as number,
      })),
    );
    const categoryNames = new Map(head.categories.map((c) => [categoryKey(c.name), book.find(c.name)?.name ?? c.name]));
    const categoryOf = (name: string) =>
      isBuiltInCategory(name)
        ? normalizeCategory(name)
        : (categoryNames.get(categoryKey(name)) ?? normalizeCategory(name));

    // One number per written row, by its position in the file: what later parts point at.
    const { counts } = head;
    const entities: { id: number; columns: ReturnType<typeof entryColumnsOf> }[] = [];
    const entryIds = new Float64Array(counts.invoices);
    const paymentIds = new Float64Array(counts.payments);
    const scheduleIds = new Float64Array(counts.schedules);
    let invoicesDone = 0;
    let paymentsDone = 0;
    let schedulesDone = 0;

    for (let next = await stream.next(); !next.done; next = await stream.next()) {
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
        const ids = await repo.insertBills(rows, ROWS);
        for (const [i, row] of rows.entries()) entities.push({ id: ids[i] as number, columns: entryColumnsOf(row) });
        const items = rows.map((row, i) => ({ id: ids[i] as number, before: null, after: row }));
        await history.recordMany('bill', actor.userId, 'import', items);
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
            ...derivePayment(amount, inv.paidCents, inv.paidCount),
            ...entity.columns,
            recycled_at: ms(inv.deletedAt),
            recycled_cascade: inv.deletedWithEntity ? 1 : 0,
            created_at: ms(inv.createdAt) as number,
          };
        });
        const ids = await repo.insertEntries(rows, undefined, ROWS);
        for (const row of rows) entryIds[invoicesDone++] = ids.get(row.invoice_number) as number;
        const items = rows.map((row) => ({ id: ids.get(row.invoice_number) as number, before: null, after: row }));
        await history.recordMany('entry', actor.userId, 'import', items);
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
        const ids = await repo.insertPayments(rows, undefined, ROWS);
        for (const id of ids) paymentIds[paymentsDone++] = id;
        const items = rows.map((row, i) => ({ id: ids[i] as number, before: null, after: row }));
        await history.recordMany('payment', actor.userId, 'import', items);
        published(rows.length, 'payments');
      } else if ('schedules' in part) {
        for (const s of part.schedules) {
          scheduleIds[schedulesDone++] = await repo.insertSchedule({
            ledger_id: ledgerId,
            bill_id: (entities[s.entity] as (typeof entities)[number]).id,
            cadence: s.cadence,
            interval: s.interval,
            day_of_month: s.dayOfMonth,
            first_date: s.firstDate,
            end_date: s.endDate,
            max_count: s.count,
            amount_cents: cents(s.amount),
            flow: s.flow === 'income' ? 'INCOMING' : 'OUTGOING',
            template: s.description,
            due_days: s.dueDays,
            autopay_method: s.autopay,
            paused: s.paused ? 1 : 0,
            next_date: s.nextDate,
            created_count: s.occurrenceCount,
            created_at: ms(s.createdAt) as number,
          });
        }
        published(part.schedules.length, 'schedules');
      } else if ('occurrences' in part) {
        await repo.insertOccurrences(
          part.occurrences.map((o) => ({
            schedule_id: scheduleIds[o.schedule] as number,
            occurrence_date: o.date,
            entry_id: o.invoice === null ? null : (entryIds[o.invoice] as number),
            autopay_date: o.autopayDate,
            payment_id: o.payment === null ? null : (paymentIds[o.payment] as number),
            created_at: ms(o.createdAt) as number,
          })),
          ROWS,
        );
        published(part.occurrences.length, 'occurrences');
      }
    }
    if (
      entities.length !== counts.entities ||
      invoicesDone !== counts.invoices ||
      paymentsDone !== counts.payments ||
      schedulesDone !== counts.schedules
    )
      throw new Error('the account file ended before all its parts were written');
    await repo.setLastInvoiceNumber(ledgerId, Math.max(Number(ledger.last_invoice_number), head.lastInvoiceNumber));
    return {
      entities: counts.entities,
      invoices: counts.invoices,
      payments: counts.payments,
      schedules: counts.schedules,
      categories: added.length,
    };
  }
}
