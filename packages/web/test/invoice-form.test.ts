import type { Bill } from '@billfold/contract/bills';
import type { Entry } from '@billfold/contract/entries';
import { describe, expect, it } from 'vitest';
import {
  archivedEntityNotice,
  checkInvoiceForm,
  dueDateProblem,
  emptyInvoiceForm,
  findEntityByName,
  flowFor,
  type InvoiceFormValues,
  invoiceFormFromEntry,
  invoiceFormFromReading,
  pathAfterSave,
  toEntryBody,
} from '../src/features/invoices/invoice-form.ts';
import { acceptAmountInput, amountInputText, parseAmountInput, readAmountInput } from '../src/lib/amount-input.ts';

const filled = (overrides: Partial<InvoiceFormValues> = {}): InvoiceFormValues => ({
  billId: 7,
  date: '2026-02-03',
  flow: 'expense',
  amount: '1234.5',
  services: '  February power ',
  dueDate: '',
  ...overrides,
});

function entry(overrides: Partial<Entry> = {}): Entry {
  return {
    entryId: 11,
    invoiceId: 3,
    billId: 7,
    name: 'Power Co',
    category: 'Utilities',
    date: '2026-02-03',
    flow: 'OUTGOING',
    amount: 1234.5,
    services: 'February power',
    dueDate: null,
    estimate: null,
    estimated: false,
    status: false,
    overpaid: false,
    balance: { totalBalance: 1234.5, totalOverpaid: 0 },
    internal: false,
    archived: false,
    recycle: false,
    ...overrides,
  };
}

describe('amount input (9 digits + 2 decimals, length 12; docs/product.md, Validation)', () => {
  it('takes what a user may be typing and refuses the rest', () => {
    for (const text of ['', '1', '12.', '.5', '123456789', '123456789.99', '0.1'])
      expect(acceptAmountInput(text)).toBe(true);
    for (const text of ['1234567890', '1.234', '-1', '1e5', '1,000', '12.3.4', ' 1']) {
      expect(acceptAmountInput(text)).toBe(false);
    }
  });

  it('reads whole amounts only; a trailing dot is ignored', () => {
    expect(parseAmountInput('1234.5')).toBe(1234.5);
    expect(parseAmountInput('12.')).toBe(12);
    expect(parseAmountInput('.5')).toBe(0.5);
    expect(parseAmountInput('0')).toBe(0);
    expect(parseAmountInput('999999999.99')).toBe(999999999.99);
    expect(parseAmountInput('')).toBeNull();
    expect(parseAmountInput('.')).toBeNull();
    expect(parseAmountInput('1.234')).toBeNull();
  });

  it('takes amounts pasted from a bank statement in the plain form, and says why it refuses the rest', () => {
    expect(readAmountInput('$5.00')).toEqual({ text: '5.00', error: null });
    expect(readAmountInput('1,234.56')).toEqual({ text: '1234.56', error: null });
    expect(readAmountInput(' 7.5 ')).toEqual({ text: '7.5', error: null });
    expect(readAmountInput('12.')).toEqual({ text: '12.', error: null });
    expect(readAmountInput('')).toEqual({ text: '', error: null });
    const refused = { text: null, error: 'Not an amount: use digits with up to 2 decimals, at most 999,999,999.99.' };
    for (const text of ['12,50', '1.234', '1234567890', 'abc', '12-5']) expect(readAmountInput(text)).toEqual(refused);
    expect(parseAmountInput('$1,234.56')).toBe(1234.56);
  });

  it('shows stored amounts without float noise', () => {
    expect(amountInputText(1234.5)).toBe('1234.50');
    expect(amountInputText(500)).toBe('500.00');
    expect(amountInputText(0.1)).toBe('0.10');
  });
});

describe('invoice form', () => {
  it('needs Entity, Date, Flow and Amount; Description is optional', () => {
    expect(checkInvoiceForm(filled({ services: '' }))).toEqual({ message: null, fields: [] });
    expect(checkInvoiceForm(emptyInvoiceForm('2026-02-03'))).toEqual({
      message: 'Please fill in all required fields.',
      fields: ['billId', 'flow', 'amount'],
    });
    expect(checkInvoiceForm(filled({ date: '' })).fields).toEqual(['date']);
    expect(checkInvoiceForm(filled({ date: '2100-01-01' })).fields).toEqual(['date']);
    expect(checkInvoiceForm(filled({ amount: '.' })).fields).toEqual(['amount']);
  });

  it('a date field with a problem (2026-02-30) blocks the form as a field error, not as a missing field', () => {
    const problem = 'Enter a whole date that exists, as YYYY-MM-DD.';
    expect(checkInvoiceForm(filled({ date: '' }), problem)).toEqual({ message: null, fields: ['date'] });
    expect(checkInvoiceForm(filled({ date: '', amount: '' }), problem)).toEqual({
      message: 'Please fill in all required fields.',
      fields: ['date', 'amount'],
    });
  });

  it('forces the flow to internal for an internal entity, and drops it when the entity is not internal', () => {
    expect(flowFor('income', true)).toBe('internal');
    expect(flowFor('', true)).toBe('internal');
    expect(flowFor('internal', false)).toBe('');
    expect(flowFor('income', false)).toBe('income');
  });

  it("starts an entity of an income or expense category of the user's own with that flow, until one is chosen", () => {
    expect(flowFor('', false, 'income')).toBe('income');
    expect(flowFor('', false, 'expense')).toBe('expense');
    expect(flowFor('internal', false, 'income')).toBe('income');
    expect(flowFor('expense', false, 'income')).toBe('expense');
    expect(flowFor('', true, 'income')).toBe('internal');
    expect(flowFor('', false, null)).toBe('');
  });

  it('sends the amount as a number and the description trimmed', () => {
    expect(toEntryBody(filled())).toEqual({
      billId: 7,
      date: '2026-02-03',
      flow: 'expense',
      amount: 1234.5,
      services: 'February power',
      dueDate: null,
    });
    expect(toEntryBody(filled({ flow: 'internal' })).flow).toBe('internal');
  });

  it('shows an invoice as the form edits it', () => {
    expect(invoiceFormFromEntry(entry())).toEqual({
      billId: 7,
      date: '2026-02-03',
      flow: 'expense',
      amount: '1234.50',
      services: 'February power',
      dueDate: '',
    });
    expect(invoiceFormFromEntry(entry({ flow: 'INCOMING' })).flow).toBe('income');
    expect(invoiceFormFromEntry(entry({ internal: true })).flow).toBe('internal');
  });

  it('goes home after a create and to the invoice after an update (docs/product.md, Where a save leads)', () => {
    expect(pathAfterSave('create', 11)).toBe('/home');
    expect(pathAfterSave('update', 11)).toBe('/entries/11');
  });

  it('preselects the entity an ?entityName= link names: exact first, then ignoring case and spaces', () => {
    const entities = [{ name: 'Acme' }, { name: 'ACME ' }, { name: 'Power Co' }];
    expect(findEntityByName(entities, 'ACME ')).toBe(entities[1]);
    expect(findEntityByName(entities, 'acme')).toBe(entities[0]);
    expect(findEntityByName(entities, ' power co ')).toBe(entities[2]);
    expect(findEntityByName(entities, 'Nobody')).toBeNull();
    expect(findEntityByName(entities, null)).toBeNull();
  });

  it('says an archived entity is archived and where to restore it', () => {
    expect(archivedEntityNotice('Old Lodge')).toBe(
      '"Old Lodge" is archived, so it takes no new invoices. Restore it from Archives in the History menu first.',
    );
  });
});

describe('the due date of the invoice form', () => {
  it('is optional, sent as null when empty and as the date when set', () => {
    expect(checkInvoiceForm(filled())).toEqual({ message: null, fields: [] });
    expect(toEntryBody(filled()).dueDate).toBeNull();
    expect(toEntryBody(filled({ dueDate: '2026-03-05' })).dueDate).toBe('2026-03-05');
  });

  it('may not come before the invoice date, and a field showing a problem blocks the form', () => {
    expect(dueDateProblem(filled({ dueDate: '2026-02-02' }))).toBe('Due date must not be before the invoice date.');
    expect(dueDateProblem(filled({ dueDate: '2026-02-03' }))).toBeNull();
    expect(checkInvoiceForm(filled({ dueDate: '2026-02-02' })).fields).toEqual(['dueDate']);
    expect(checkInvoiceForm(filled(), null, 'Enter a whole date that exists, as YYYY-MM-DD.').fields).toEqual([
      'dueDate',
    ]);
  });

  it('shows an invoice’s due date, or nothing', () => {
    expect(invoiceFormFromEntry(entry({ dueDate: '2026-03-01' })).dueDate).toBe('2026-03-01');
    expect(invoiceFormFromEntry(entry()).dueDate).toBe('');
  });
});

describe('invoiceFormFromReading', () => {
  const bills: Bill[] = [
    { id: 4, name: 'Stadtwerke', category: 'Utilities', internal: false, status: 1, recycle: false },
    { id: 9, name: 'Savings', category: 'Transfers', internal: true, status: 1, recycle: false },
  ];
  const reading = {
    source: 'text' as const,
    language: 'de' as const,
    amount: 1234.56,
    date: '2026-03-15',
    dueDate: '2026-03-29',
    billId: 4,
    billName: 'Stadtwerke',
    heading: 'Stadtwerke GmbH',
  };
  const empty = emptyInvoiceForm('2026-11-28');

  it('fills each field that was read and names it', () => {
    expect(invoiceFormFromReading(empty, reading, bills)).toEqual({
      values: { ...empty, billId: 4, amount: '1234.56', date: '2026-03-15', dueDate: '2026-03-29' },
      read: ['billId', 'amount', 'date', 'dueDate'],
    });
  });

  it('keeps the empty form where nothing was read, an entity not offered, and a due date before the date', () => {
    const none = { ...reading, amount: null, date: null, dueDate: null, billId: null, billName: null };
    expect(invoiceFormFromReading(empty, none, bills)).toEqual({ values: empty, read: [] });
    expect(invoiceFormFromReading(empty, { ...reading, billId: 99 }, bills).read).not.toContain('billId');
    const early = invoiceFormFromReading(empty, { ...reading, dueDate: '2026-03-01' }, bills);
    expect(early.values.dueDate).toBe('');
    expect(early.read).toEqual(['billId', 'amount', 'date']);
  });

  it("takes an internal entity's fixed flow", () => {
    expect(invoiceFormFromReading(empty, { ...reading, billId: 9 }, bills).values.flow).toBe('internal');
  });
});
