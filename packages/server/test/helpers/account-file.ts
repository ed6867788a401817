import type { AccountFile } from '@billfold/contract/account-file';

/** The entity of `smallAccountFile`. */
export const fileEntity: AccountFile['entities'][number] = {
  ref: 1,
  name: 'Power Co',
  category: 'Utilities',
  internal: false,
  archived: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  deletedAt: null,
};

/** The invoice of `smallAccountFile`, of its entity. */
export const fileInvoice: AccountFile['invoices'][number] = {
  ref: 1,
  entity: 1,
  number: 1,
  date: '2026-01-05',
  flow: 'expense',
  amount: '10.00',
  description: 'Bill',
  createdAt: '2026-01-05T00:00:00.000Z',
  deletedAt: null,
  deletedWithEntity: false,
};

/** The payment of `smallAccountFile`, paying its invoice. */
export const filePayment: AccountFile['payments'][number] = {
  ref: 1,
  invoice: 1,
  date: '2026-01-06',
  amount: '10.00',
  method: 'cash|person',
  notes: '',
  autopay: false,
  createdAt: '2026-01-06T00:00:00.000Z',
  deletedAt: null,
  deletedWithInvoice: false,
};

/**
 * A current-version account file of one entity, its invoice and the invoice's payment (fresh copies, so a test may
 * spoil them), with `parts` in place of its own.
 */
export function smallAccountFile(parts: Partial<AccountFile> = {}): AccountFile {
  return {
    format: 'billfold-account',
    version: 3,
    categories: [],
    exportedAt: '2026-11-01T00:00:00.000Z',
    lastInvoiceNumber: 1,
    entities: [{ ...fileEntity }],
    invoices: [{ ...fileInvoice }],
    payments: [{ ...filePayment }],
    schedules: [],
    ...parts,
  };
}
