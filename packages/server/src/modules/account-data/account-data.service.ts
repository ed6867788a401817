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
import { conflict } from '../../lib/http-error.ts';
import { billNameKey, entryColumnsOf } from '../bills/bill.mapper.ts';
import { derivePayment } from '../ledger/ledger.ts';
import type { AccountDataRepository } from './account-data.repository.ts';

export const ACCOUNT_NOT_EMPTY =
  'Import needs an empty account: this account already has entities or invoices (including ones in the recycle bin).';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const ms = (text: string | null) => (text === null ? null : Date.parse(text));
/** The file's decimal strings are validated by the schema, so they always convert. */
const cents = (text: string) => toCents(text) as number;

/** The whole-account file (docs/decisions/0901-account-file.md): export, and import into an empty account. */
export class AccountDataService {
  constructor(
    private readonly repo: AccountDataRepository,
    private readonly now: () => number,
  ) {}

  /** Everything the user owns, read in one transaction so the file is one consistent moment. */
  export(userId: number): Promise<AccountFile> {
    return this.repo.transaction(async (repo) => {
      const user = await repo.lockUser(userId);
      const [categories, bills, entries, payments, schedules, occurrences] = [
        await repo.categories(userId),
        await repo.bills(userId),
        await repo.entries(userId),
        await repo.payments(userId),
        await repo.schedules(userId),
        await repo.occurrences(userId),
      ];
      const billRef = new Map(bills.map((b, i) => [b.id, i + 1]));
      const entryRef = new Map(entries.map((e, i) => [e.id, i + 1]));
      const paymentRef = new Map(payments.map((p, i) => [p.id, i + 1]));
      return {
        format: ACCOUNT_FILE_FORMAT,
        version: ACCOUNT_FILE_VERSION,
        exportedAt: new Date(this.now()).toISOString(),
        lastInvoiceNumber: Number(user.last_invoice_number),
        categories: categories.map((c) => ({
          name: c.name,
          flow: c.flow === 'income' ? ('income' as const) : ('expense' as const),
          retired: c.retired_at !== null,
          createdAt: iso(c.created_at) as string,
        })),
        entities: bills.map((b, i) => ({
          ref: i + 1,
          name: b.name,
          category: categoryLabel(b.category),
          internal: b.internal === 1,
          archived: b.status === 0,
          createdAt: iso(b.created_at) as string,
          deletedAt: iso(b.recycled_at),
        })),
        invoices: entries.map((e, i) => ({
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
        })),
        payments: payments.map((p, i) => ({
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
        })),
        schedules: schedules.map((s, i) => ({
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
          occurrences: occurrences
            .filter((o) => o.schedule_id === s.id)
            .map((o) => ({
              date: o.occurrence_date,
              invoice: o.entry_id === null ? null : (entryRef.get(o.entry_id) ?? null),
              autopayDate: o.autopay_date,
              payment: o.payment_id === null ? null : (paymentRef.get(o.payment_id) ?? null),
              createdAt: iso(o.created_at) as string,
            })),
        })),
      };
    });
  }

  /**
   * Writes a parsed (and upgraded) file into the user's account in one transaction, or nothing: the account must
   * hold no entity yet (an invoice always has one). Stored payment totals are derived from the live payments, as
   * every write path does; the rollup tables follow through their triggers.
   */
  import(userId: number, file: AccountFile): Promise<AccountImportSummary> {
    return this.repo.transaction(async (repo) => {
      const user = await repo.lockUser(userId);
      if (await repo.hasData(userId)) throw conflict(ACCOUNT_NOT_EMPTY);

      // The file's own categories join the account's: one the account already has (same name, case and spacing
      // aside) is kept as it is, and the file's entities take its name.
      const book = await repo.categoryBook(userId);
      const added = file.categories.filter((c) => !book.find(c.name));
      if (book.own.length + added.length > MAX_OWN_CATEGORIES)
        throw conflict(
          `The file has ${added.length} categories this account does not have; with its ${book.own.length} that is more than ${MAX_OWN_CATEGORIES}.`,
          'TOO_MANY_CATEGORIES',
        );
      await repo.insertCategories(
        added.map((c) => ({
          user_id: userId,
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
        user_id: userId,
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
      for (const p of file.payments) {
        if (p.deletedAt !== null) continue;
        const total = paid.get(p.invoice) ?? { cents: 0, count: 0 };
        paid.set(p.invoice, { cents: total.cents + cents(p.amount), count: total.count + 1 });
      }
      const entryIds = await repo.insertEntries(
        file.invoices.map((inv) => {
          const bill = billByRef.get(inv.entity) as NonNullable<ReturnType<typeof billByRef.get>>;
          const amount = cents(inv.amount);
          const total = paid.get(inv.ref) ?? { cents: 0, count: 0 };
          return {
            user_id: userId,
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
        }),
      );
      const entryByRef = new Map(file.invoices.map((inv) => [inv.ref, entryIds.get(inv.number) as number]));
      const paymentIds = await repo.insertPayments(
        file.payments.map((p) => {
          const [type = '', medium = ''] = p.method.split('|');
          return {
            user_id: userId,
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
        }),
      );
      const paymentByRef = new Map(file.payments.map((p, i) => [p.ref, paymentIds[i] as number]));
      for (const s of file.schedules) {
        const bill = billByRef.get(s.entity) as NonNullable<ReturnType<typeof billByRef.get>>;
        await repo.insertSchedule(
          {
            user_id: userId,
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
      await repo.setLastInvoiceNumber(userId, Math.max(Number(user.last_invoice_number), file.lastInvoiceNumber));
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
