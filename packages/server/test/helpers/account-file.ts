import type { AccountFile, AccountFileV4 } from '@billfold/contract/account-file';
import { CATEGORIES } from '@billfold/contract/categories';
import { PART_ITEMS } from '../../src/modules/account-data/account-file-parser.ts';

/**
 * A version-6 ledger file of one entity ("Power Co", Utilities) with one expense invoice of 10.00 paid in full in
 * cash and no schedules: a file `POST /account/import` takes. Each call builds a fresh object; override the texts
 * the test is about.
 */
export function oneInvoiceFile(texts: Partial<{ name: string; description: string; notes: string }> = {}): AccountFile {
  return {
    format: 'billfold-account',
    version: 6,
    ledger: { name: 'Personal' },
    categories: [],
    exportedAt: '2026-11-01T00:00:00.000Z',
    lastInvoiceNumber: 1,
    entities: [
      {
        ref: 1,
        name: texts.name ?? 'Power Co',
        category: 'Utilities',
        internal: false,
        archived: false,
        createdAt: '2026-01-01T00:00:00.000Z',
        deletedAt: null,
      },
    ],
    invoices: [
      {
        ref: 1,
        entity: 1,
        number: 1,
        date: '2026-01-05',
        flow: 'expense',
        amount: '10.00',
        description: texts.description ?? 'Bill',
        createdAt: '2026-01-05T00:00:00.000Z',
        deletedAt: null,
        deletedWithEntity: false,
      },
    ],
    payments: [
      {
        ref: 1,
        invoice: 1,
        date: '2026-01-06',
        amount: '10.00',
        method: 'cash|person',
        notes: texts.notes ?? '',
        autopay: false,
        createdAt: '2026-01-06T00:00:00.000Z',
        deletedAt: null,
        deletedWithInvoice: false,
      },
    ],
    schedules: [],
    attachments: [],
  };
}

/**
 * A version-4 file of `n` invoices over more entities than a part holds: two categories of its own (one retired), an
 * internal entity, archived ones, one deleted with its invoices and their payments, invoices with a due date,
 * unpaid, partly paid, paid twice or with a payment in the recycle bin, and a weekly schedule with more occurrences
 * than a part, pointing at invoices and payments.
 */
export function richAccountFile(n: number): AccountFileV4 {
  const at = (day: number) => new Date(Date.UTC(2020, 0, 1) + day * 86_400_000).toISOString();
  const date = (day: number) => at(day).slice(0, 10);
  const entityCount = PART_ITEMS + 100;
  const entities = Array.from({ length: entityCount }, (_, i) => ({
    ref: i + 1,
    name: `Entity ${i + 1}`,
    category: i === 1 ? 'Allotment' : i === 2 ? 'Old club' : (CATEGORIES[i % CATEGORIES.length] as string),
    internal: i === 3,
    archived: i % 7 === 5,
    createdAt: at(0),
    deletedAt: i === 0 ? at(900) : null,
  }));
  const invoices: AccountFileV4['invoices'] = [];
  const payments: AccountFileV4['payments'] = [];
  for (let i = 0; i < n; i++) {
    const entity = i % entityCount;
    const deleted = entity === 0;
    const cents = 1_000 + ((i * 7919) % 900_000);
    const amount = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
    invoices.push({
      ref: i + 1,
      entity: entity + 1,
      number: i + 1,
      date: date(i % 1_500),
      flow: entity === 3 || i % 5 !== 0 ? 'expense' : 'income',
      amount: amount(cents),
      description: `Invoice ${i + 1}`,
      ...(i % 3 === 0 ? { dueDate: date((i % 1_500) + 14) } : {}),
      createdAt: at(i % 1_500),
      deletedAt: deleted ? at(900) : null,
      deletedWithEntity: deleted,
    });
    const pay = (c: number, extra: Partial<AccountFileV4['payments'][number]> = {}) =>
      payments.push({
        ref: payments.length + 1,
        invoice: i + 1,
        date: date((i % 1_500) + 1),
        amount: amount(c),
        method: i % 4 === 0 ? 'check|mail' : 'bank|ach',
        notes: i % 11 === 0 ? `note ${i}` : '',
        autopay: i % 13 === 0,
        createdAt: at((i % 1_500) + 1),
        deletedAt: deleted ? at(900) : null,
        deletedWithInvoice: deleted,
        ...extra,
      });
    if (i % 10 === 1) continue; // unpaid
    if (i % 10 === 2)
      pay(Math.floor(cents / 3)); // partly paid
    else if (i % 10 === 3) {
      pay(cents - 100);
      pay(100);
    } else if (i % 10 === 4 && !deleted) {
      pay(cents);
      pay(cents, { deletedAt: at(1_000) }); // in the recycle bin
    } else pay(cents);
  }
  const occurrences = Array.from({ length: PART_ITEMS + 50 }, (_, k) => ({
    date: date(k * 7),
    invoice: k % 3 === 0 ? null : k + 1,
    autopayDate: k % 5 === 0 ? date(k * 7 + 1) : null,
    payment: k % 4 === 0 ? k + 1 : null,
    createdAt: at(k * 7),
  }));
  return {
    format: 'billfold-account',
    version: 4,
    ledger: { name: 'Household' },
    exportedAt: at(2_000),
    lastInvoiceNumber: n + 5,
    categories: [
      { name: 'Allotment', flow: 'expense', retired: false, createdAt: at(0) },
      { name: 'Old club', flow: 'expense', retired: true, createdAt: at(1) },
    ],
    entities,
    invoices,
    payments,
    schedules: [
      {
        ref: 1,
        entity: 6,
        cadence: 'weekly',
        interval: 1,
        dayOfMonth: null,
        firstDate: date(0),
        endDate: null,
        count: null,
        amount: '12.00',
        flow: 'expense',
        description: 'Weekly box',
        dueDays: 3,
        autopay: 'bank|ach',
        paused: false,
        nextDate: date((PART_ITEMS + 50) * 7),
        createdAt: at(0),
        occurrences,
      },
      {
        ref: 2,
        entity: 8,
        cadence: 'monthly',
        interval: 1,
        dayOfMonth: 31,
        firstDate: date(30),
        endDate: null,
        count: 12,
        amount: '99.99',
        flow: 'income',
        description: 'Rent in',
        dueDays: 0,
        autopay: null,
        paused: true,
        nextDate: null,
        createdAt: at(30),
        occurrences: [],
      },
    ],
  };
}
