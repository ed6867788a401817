import { normalizeCategory } from '@billfold/contract/categories';
import { isValidIsoDate, MAX_DATE, MIN_DATE } from '@billfold/contract/dates';
import type { ColumnMapping, DateFormat, ImportRow } from '@billfold/contract/imports';
import { centsToDecimalString, formatAmount, MAX_CENTS, parseSignedAmountText } from '@billfold/contract/money';
import { ownValue } from '@billfold/contract/own-keys';
import { PAYMENT_METHOD_CODES, type PaymentMethodCode, paymentMethodLabel } from '@billfold/contract/payment-methods';
import { nameProblem, textProblem } from '@billfold/contract/text-rules';
import { MESSAGES } from '@billfold/contract/validation';
import { billNameKey } from '../bills/bill.mapper.ts';
import { parseDate } from './import-mapping.ts';

/** One row of the file read through the mapping: what would be written, or the reasons it cannot be. */
export interface Candidate {
  line: number;
  date: string;
  entity: string;
  entityKey: string;
  description: string;
  flow: 'income' | 'expense' | 'internal';
  amountCents: number;
  paidCents: number;
  method: PaymentMethodCode;
  category: string;
  dueDate: string | null;
}

const FLOW_WORDS: Record<string, Candidate['flow']> = {
  income: 'income',
  incoming: 'income',
  credit: 'income',
  deposit: 'income',
  in: 'income',
  expense: 'expense',
  outgoing: 'expense',
  debit: 'expense',
  withdrawal: 'expense',
  payment: 'expense',
  out: 'expense',
  internal: 'internal',
  transfer: 'internal',
};

const METHOD_WORDS: Record<string, PaymentMethodCode> = {
  ...Object.fromEntries(PAYMENT_METHOD_CODES.map((code) => [paymentMethodLabel(code).toLowerCase(), code])),
  ...Object.fromEntries(PAYMENT_METHOD_CODES.map((code) => [code, code])),
  cash: 'cash|person',
  check: 'check|mail',
  cheque: 'check|mail',
  ach: 'bank|ach',
  bank: 'bank|ach',
  'bank transfer': 'bank|ach',
  transfer: 'bank|ach',
  'credit card': 'credit|web',
  credit: 'credit|web',
  'debit card': 'debit|web',
  debit: 'debit|web',
  zelle: 'other|service',
  paypal: 'other|service',
  venmo: 'other|service',
  'apple pay': 'other|ewallet',
  'google pay': 'other|ewallet',
  other: 'other|other',
};

const MOST = formatAmount(MAX_CENTS / 100);

/**
 * A text cell by the rules every stored text follows (docs/decisions/0102-text-characters.md): trimmed, at most
 * `max` characters, and refused, as a row error naming the field, when `problem` finds a character it may not hold.
 */
function checkedText(
  label: string,
  text: string,
  max: number,
  problem: (value: string) => string | null,
  errors: string[],
): string {
  if (text.length > max) errors.push(`${label} is longer than ${max} characters.`);
  const reason = problem(text);
  if (reason) errors.push(`${label} ${reason}.`);
  return text;
}

/** An entity name: in Unicode's composed form, as the API stores names, and by the name rules. */
export const entityCell = (value: string, errors: string[]) =>
  checkedText('Entity', value.trim().normalize('NFC'), 100, nameProblem, errors);

/** A description: free text. */
export const descriptionCell = (value: string, errors: string[]) =>
  checkedText('Description', value.trim(), 500, textProblem, errors);

export function interpretRow(
  line: number,
  cells: readonly string[],
  mapping: ColumnMapping,
  dateFormat: DateFormat,
  /** The stored category a cell names: a built-in one, or one of the ledger's own (`CategoryBook.resolve`). */
  categoryOf: (text: string) => string = normalizeCategory,
): {
  row: ImportRow;
  candidate: Candidate | null;
  /** The row's date is there but not written in `dateFormat`. */
  dateUnread: boolean;
} {
  const cell = (column: number | null) => (column === null ? '' : (cells[column] ?? '').trim());
  const errors: string[] = [];

  /** A date cell in the file's format, or null with the reason among the row's errors (`unread`: not in it). */
  const readDate = (label: string, text: string): { iso: string | null; unread: boolean } => {
    const iso = parseDate(text, dateFormat);
    if (iso === null) errors.push(`${label} "${text}" is not a date in the format ${dateFormat}.`);
    else if (!isValidIsoDate(iso)) errors.push(`${label} ${iso} is outside ${MIN_DATE}..${MAX_DATE}.`);
    else return { iso, unread: false };
    return { iso: null, unread: iso === null };
  };
  const dateText = cell(mapping.date);
  if (dateText === '') errors.push('Date is empty.');
  const dateRead = dateText === '' ? { iso: null, unread: false } : readDate('Date', dateText);
  const date = dateRead.iso;
  const dueText = cell(mapping.dueDate);
  const dueDate = dueText === '' ? null : readDate('Due date', dueText).iso;
  if (date !== null && dueDate !== null && dueDate < date) errors.push(MESSAGES.dueBeforeDate);

  const entity = entityCell(cell(mapping.entity), errors);
  if (entity === '') errors.push('Entity is empty.');
  const description = descriptionCell(cell(mapping.description), errors);

  let flow: Candidate['flow'] | null = null;
  const flowText = cell(mapping.flow);
  if (flowText !== '') {
    flow = ownValue(FLOW_WORDS, flowText.toLowerCase()) ?? null;
    if (!flow) errors.push(`Flow "${flowText}" is not income, expense or internal.`);
  }

  let amountCents: number | null = null;
  const readAmount = (label: string, text: string): number | null => {
    const cents = parseSignedAmountText(text);
    if (cents === null) errors.push(`${label} "${text}" is not an amount.`);
    else if (Math.abs(cents) > MAX_CENTS) errors.push(`${label} "${text}" is out of range (the most is ${MOST}).`);
    else return cents;
    return null;
  };
  if (mapping.amount !== null) {
    const text = cell(mapping.amount);
    if (text === '') errors.push('Amount is empty.');
    else {
      const cents = readAmount('Amount', text);
      if (cents !== null) {
        amountCents = Math.abs(cents);
        flow ??= cents < 0 ? 'expense' : 'income';
      }
    }
  } else {
    const debitText = cell(mapping.debit);
    const creditText = cell(mapping.credit);
    const debit = debitText === '' ? null : readAmount('Debit', debitText);
    const credit = creditText === '' ? null : readAmount('Credit', creditText);
    if (debitText === '' && creditText === '') errors.push('Debit and credit are both empty.');
    else if (debit && credit) errors.push('Debit and credit both hold an amount; a row is one or the other.');
    else if (debit !== null && (credit === null || credit === 0)) {
      amountCents = Math.abs(debit);
      flow ??= 'expense';
    } else if (credit !== null) {
      amountCents = Math.abs(credit);
      flow ??= 'income';
    }
  }

  let paidCents = 0;
  const paidText = cell(mapping.paid);
  if (paidText !== '') {
    const cents = readAmount('Paid amount', paidText);
    if (cents !== null && cents < 0) errors.push('Paid amount must not be negative.');
    else if (cents !== null) paidCents = cents;
  }
  let method: PaymentMethodCode = 'other|other';
  const methodText = cell(mapping.method);
  if (methodText !== '') {
    const known = ownValue(METHOD_WORDS, methodText.toLowerCase().replace(/\s+/g, ' '));
    if (known) method = known;
    else errors.push(`Payment method "${methodText}" is not one of the payment methods.`);
  }
  const category = categoryOf(cell(mapping.category));

  const row: ImportRow = {
    line,
    date,
    entity,
    description,
    flow,
    amount: amountCents === null ? null : centsToDecimalString(amountCents),
    paid: paidCents > 0 ? centsToDecimalString(paidCents) : null,
    method: paidCents > 0 ? paymentMethodLabel(method) : null,
    category,
    dueDate,
    errors,
    duplicate: null,
  };
  const dateUnread = dateRead.unread;
  if (errors.length > 0 || date === null || amountCents === null || flow === null)
    return { row, candidate: null, dateUnread };
  return {
    row,
    dateUnread,
    candidate: {
      line,
      date,
      entity,
      entityKey: billNameKey(entity),
      description,
      flow,
      amountCents,
      paidCents,
      method,
      category,
      dueDate,
    },
  };
}

/** What makes two invoices likely the same: entity, date, amount and description (case and spacing aside). */
export function duplicateKey(entityKey: string, date: string, amountCents: number, description: string): string {
  return `${entityKey}\u0000${date}\u0000${amountCents}\u0000${description.trim().toLowerCase().replace(/\s+/g, ' ')}`;
}
