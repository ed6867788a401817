import {
  ACCOUNT_FILE_FORMAT,
  ACCOUNT_FILE_VERSION,
  type AccountFile,
  type AccountImportSummary,
} from '@billfold/contract/account-file';
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
import { conflict } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';
import { billNameKey, entryColumnsOf } from '../bills/bill.mapper.ts';
import { derivePayment } from '../payment-totals/payment-totals.ts';
import type { AccountDataRepository } from './account-data.repository.ts';

export const ACCOUNT_NOT_EMPTY =
  'Import needs an empty account: this account already has entities or invoices (including ones in the recycle bin).';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const ms = (text: string | null) => (text === null ? null : Date.parse(text));
/** The file's decimal strings are validated by the schema, so they always convert. */
const cents = (text: string) => toCents(text) as number;

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

/** `rows.map(map)`, a step at a time with a turn of the event loop between steps. */
async function mapInSteps<T, U>(rows: readonly T[], map: (row: T, index: number) => U): Promise<U[]> {
  const out: U[] = [];
  for (let i = 0; i < rows.length; i++) {
    out.push(map(rows[i] as T, i));
    if ((i + 1) % STEP === 0) await nextTurn();
  }
  return out;
}

/** Builds and inserts rows a part of `STEP` at a time, so that only one part's rows exist at once. */
async function insertInParts<T, R>(items: readonly T[], map: (item: T) => R, insert: (rows: R[]) => Promise<void>) {
  for (let i = 0; i < items.length; i += STEP) await insert(items.slice(i, i + STEP).map(map));
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
   * Writes a parsed (and upgraded) file into the request's ledger in one transaction, or nothing: the ledger must
   * hold no entity yet (an invoice always has one). Stored payment totals are derived from the live payments, as
   * every write path does; the rollup tables follow through their triggers.
   */
  import(actor: Actor, file: AccountFile): Promise<AccountImportSummary> {
    const { ledgerId } = actor;
    return this.repo.transaction(async (repo) => {
      const ledger = await repo.lockLedger(ledgerId);
      if (await repo.hasData(ledgerId)) throw conflict(ACCOUNT_NOT_EMPTY);

      // The file's own categories join the account's: one the account already has (same name, case and spacing
      // aside) is kept as it is, and the file's entities take its name.
      const book = await repo.categoryBook(ledgerId);
      const added = file.categories.filter((c) => !book.find(c.name));
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
      const categoryNames = new Map(
        file.categories.map((c) => [categoryKey(c.name), book.find(c.name)?.name ?? c.name]),
      );
      const categoryOf = (name: string) =>
        isBuiltInCategory(name)
          ? normalizeCategory(name)
          : (categoryNames.get(categoryKey(name)) ?? normalizeCategory(name));

      const bills = file.entities.map((e) => ({
        ledger_id: ledgerId,
        name: e.name,
        name_key: billNameKey(e.name),
        category: categoryOf(e.category),
        internal: e.internal ? 1 : 0,
        status: e.archived ? 0 : 1,
        recycled_at: ms(e.deletedAt),
        created_at: ms(e.createdAt) as number,
      }));
      const billIds = await repo.insertBills(bills);
      const billByRef = new Map(bills.map((bill, i) => [file.entities[i]?.ref, { ...bill, id: billIds[i] as number }]));

      const paid = new Map<number, { cents: number; count: number }>();
      for (const [i, p] of file.payments.entries()) {
        if (i % (STEP * 10) === 0) await nextTurn();
        if (p.deletedAt !== null) continue;
        const total = paid.get(p.invoice) ?? { cents: 0, count: 0 };
        paid.set(p.invoice, { cents: total.cents + cents(p.amount), count: total.count + 1 });
      }
      const entryIds = new Map<number, number>();
      await insertInParts(
        file.invoices,
        (inv) => {
          const bill = billByRef.get(inv.entity) as NonNullable<ReturnType<typeof billByRef.get>>;
          const amount = cents(inv.amount);
          const total = paid.get(inv.ref) ?? { cents: 0, count: 0 };
          return {
            ledger_id: ledgerId,
            bill_id: bill.id,
            invoice_number: inv.number,
            date: inv.date,
            flow: inv.flow === 'income' ? 'INCOMING' : 'OUTGOING',
            amount_cents: amount,
            services: inv.description,
            due_date: inv.dueDate ?? null,
            ...derivePayment(amount, total.cents, total.count),
            ...entryColumnsOf(bill),
            recycled_at: ms(inv.deletedAt),
            recycled_cascade: inv.deletedWithEntity ? 1 : 0,
            created_at: ms(inv.createdAt) as number,
          };
        },
        async (rows) => {
          for (const [number, id] of await repo.insertEntries(rows)) entryIds.set(number, id);
        },
      );
      const entryByRef = new Map(
        await mapInSteps(file.invoices, (inv) => [inv.ref, entryIds.get(inv.number) as number] as const),
      );
      const paymentIds: number[] = [];
      await insertInParts(
        file.payments,
        (p) => {
          const [type = '', medium = ''] = p.method.split('|');
          return {
            ledger_id: ledgerId,
            entry_id: entryByRef.get(p.invoice) as number,
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
        },
        async (rows) => {
          for (const id of await repo.insertPayments(rows)) paymentIds.push(id);
        },
      );
      const paymentByRef = new Map(
        await mapInSteps(file.payments, (p, i) => [p.ref, paymentIds[i] as number] as const),
      );
      for (const s of file.schedules) {
        const bill = billByRef.get(s.entity) as NonNullable<ReturnType<typeof billByRef.get>>;
        await repo.insertSchedule(
          {
            ledger_id: ledgerId,
            bill_id: bill.id,
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
            created_count: s.occurrences.length,
            created_at: ms(s.createdAt) as number,
          },
          s.occurrences.map((o) => ({
            occurrence_date: o.date,
            entry_id: o.invoice === null ? null : (entryByRef.get(o.invoice) as number),
            autopay_date: o.autopayDate,
            payment_id: o.payment === null ? null : (paymentByRef.get(o.payment) as number),
            created_at: ms(o.createdAt) as number,
          })),
        );
      }
      await repo.setLastInvoiceNumber(ledgerId, Math.max(Number(ledger.last_invoice_number), file.lastInvoiceNumber));
      return {
        entities: file.entities.length,
        invoices: file.invoices.length,
        payments: file.payments.length,
        schedules: file.schedules.length,
        categories: added.length,
      };
    });
  }
}
