import type { AccountFile } from '@billfold/contract/account-file';

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
