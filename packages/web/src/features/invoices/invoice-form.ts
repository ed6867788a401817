import type { BillReadingResult } from '@billfold/contract/bill-readings';
import type { Bill } from '@billfold/contract/bills';
import { isValidIsoDate } from '@billfold/contract/dates';
import type { CreateEntryBody, Entry, EntryFilters } from '@billfold/contract/entries';
import { centsOf, formatUsd, fromCents, toCents } from '@billfold/contract/money';
import type { Payment } from '@billfold/contract/payments';
import { MESSAGES } from '@billfold/contract/validation';
import { createFilterOptions } from '@mui/material/Autocomplete';
import { amountInputText, parseAmountInput } from '../../lib/amount-input.ts';

/** The flow choice of the form; `internal` is the only choice (and forced) for an internal entity. */
export type FormFlow = NonNullable<EntryFilters['flow']>;

export interface InvoiceFormValues {
  billId: number | null;
  date: string;
  flow: FormFlow | '';
  /** As typed: up to 9 digits and 2 decimals, at most 12 characters. */
  amount: string;
  services: string;
  /** `YYYY-MM-DD`, or `''` for none. */
  dueDate: string;
}

export type InvoiceField = 'billId' | 'date' | 'flow' | 'amount' | 'dueDate';

export interface InvoiceFormCheck {
  /** The message for the form as a whole, or null when it may be sent. */
  message: string | null;
  /** The fields that stop the form: required ones that are missing, and a date field with a problem. */
  fields: InvoiceField[];
}

export function emptyInvoiceForm(today: string): InvoiceFormValues {
  return { billId: null, date: today, flow: '', amount: '', services: '', dueDate: '' };
}

/** The form as it shows an existing invoice. */
export function invoiceFormFromEntry(entry: Entry): InvoiceFormValues {
  return {
    billId: entry.billId,
    date: entry.date,
    flow: entry.internal ? 'internal' : entry.flow === 'INCOMING' ? 'income' : 'expense',
    amount: amountInputText(entry.amount),
    services: entry.services,
    dueDate: entry.dueDate ?? '',
  };
}

/**
 * An internal entity's invoices are always internal (stored as expenses); other entities cannot choose internal.
 * While no flow is chosen, an entity whose category is one of the user's own starts with that category's flow
 * (docs/decisions/0105-categories-of-your-own.md).
 */
export function flowFor(
  current: InvoiceFormValues['flow'],
  entityInternal: boolean,
  categoryFlow: 'income' | 'expense' | null = null,
): InvoiceFormValues['flow'] {
  if (entityInternal) return 'internal';
  const kept = current === 'internal' ? '' : current;
  return kept === '' && categoryFlow ? categoryFlow : kept;
}

/** What the Due date field says about its value next to the invoice date; null when it may be sent. */
export function dueDateProblem(values: Pick<InvoiceFormValues, 'date' | 'dueDate'>): string | null {
  return values.dueDate && isValidIsoDate(values.date) && values.dueDate < values.date ? MESSAGES.dueBeforeDate : null;
}

/**
 * Entity, Date, Flow and Amount are required (docs/product.md, Invoice form); Description and Due date are optional. A date field
 * that shows a problem (half-typed, impossible, out of range, a due date before the date) says so itself: it
 * blocks the form without counting as missing.
 */
export function checkInvoiceForm(
  values: InvoiceFormValues,
  dateProblem: string | null = null,
  dueFieldProblem: string | null = null,
): InvoiceFormCheck {
  const missing: InvoiceField[] = [];
  if (values.billId === null) missing.push('billId');
  if (dateProblem === null && !isValidIsoDate(values.date)) missing.push('date');
  if (values.flow === '') missing.push('flow');
  if (parseAmountInput(values.amount) === null) missing.push('amount');
  const message = missing.length ? MESSAGES.paymentFieldsRequired : null;
  const problems: InvoiceField[] = [];
  if (dateProblem !== null) problems.push('date');
  if (dueFieldProblem !== null || dueDateProblem(values) !== null) problems.push('dueDate');
  return { message, fields: [...problems, ...missing] };
}

/** The body of `POST /entries/new`; the rest of the form must have passed `checkInvoiceForm`. */
export function toEntryBody(values: InvoiceFormValues): CreateEntryBody {
  return {
    billId: values.billId ?? 0,
    date: values.date,
    flow: values.flow || 'expense',
    amount: parseAmountInput(values.amount) ?? 0,
    services: values.services.trim(),
    dueDate: values.dueDate || null,
  };
}

/** Where the app goes 1.2 s after a save (docs/product.md, Where a save leads): the home page after a create, the invoice after an update. */
export function pathAfterSave(mode: 'create' | 'update', entryId: number): string {
  return mode === 'create' ? '/home' : `/entries/${entryId}`;
}

/** What the invoice form says when the typed or linked entity is archived (its invoices are read only). */
export function archivedEntityNotice(name: string): string {
  return `"${name}" is archived, so it takes no new invoices. Restore it from Archives in the History menu first.`;
}

/** The entity an `?entityName=` link names: exact name first, then ignoring case and surrounding spaces. */
export function findEntityByName<T extends { name: string }>(entities: readonly T[], name: string | null): T | null {
  if (!name) return null;
  const wanted = name.trim().toLowerCase();
  return entities.find((e) => e.name === name) ?? entities.find((e) => e.name.trim().toLowerCase() === wanted) ?? null;
}

/** An option of the invoice form's entity picker. */
export type EntityOption =
  | { kind: 'entity'; bill: Bill }
  | { kind: 'new'; name: string }
  /** The typed name is an archived entity's: shown, not pickable. */
  | { kind: 'archived'; name: string };

// Case, accents and the spaces around what is typed do not count: "Oakwood Properties " finds Oakwood Properties.
const filterEntities = createFilterOptions<EntityOption>({
  stringify: (option) => (option.kind === 'entity' ? option.bill.name : ''),
  trim: true,
});

/**
 * What the entity picker lists for the typed text: the entities whose name contains it, then either the archived
 * entity of that name (shown, not pickable) or the offer of a new entity, named after the typed text (trimmed)
 * when no entity has that name.
 */
export function entityPickerOptions(
  all: EntityOption[],
  typed: string,
  archivedEntities: readonly Bill[],
): EntityOption[] {
  const found = filterEntities(all, {
    inputValue: typed,
    getOptionLabel: (o) => (o.kind === 'entity' ? o.bill.name : o.name),
  });
  const name = typed.trim();
  const exists = all.some((o) => o.kind === 'entity' && o.bill.name.trim().toLowerCase() === name.toLowerCase());
  const archived = exists ? null : findEntityByName(archivedEntities, name || null);
  if (archived) return [...found, { kind: 'archived', name: archived.name }];
  return [...found, { kind: 'new', name: exists ? '' : name }];
}

/**
 * What an invoice edit does to its payments that is almost always a slip (docs/decisions/0605-money-entry-warnings.md):
 * a lower amount its payments now overpay by more than that amount, or a later date some payments now come before.
 * Each is a sentence for the "Save anyway" question; only what the edit changes asks.
 */
export function invoiceEditWarnings(
  values: InvoiceFormValues,
  entry: Pick<Entry, 'date' | 'amount'>,
  payments: readonly Pick<Payment, 'date' | 'amount'>[],
): string[] {
  const warnings: string[] = [];
  const amount = toCents(parseAmountInput(values.amount) ?? Number.NaN);
  const paid = payments.reduce((sum, p) => sum + centsOf(p.amount), 0);
  if (amount !== null && amount !== centsOf(entry.amount) && paid - amount > amount)
    warnings.push(
      `Its payments of ${formatUsd(fromCents(paid))} would overpay the new amount of ${formatUsd(fromCents(amount))} by ${formatUsd(fromCents(paid - amount))}, more than the amount itself.`,
    );
  if (isValidIsoDate(values.date) && values.date !== entry.date) {
    const before = payments
      .filter((p) => p.date < values.date)
      .map((p) => p.date)
      .sort();
    if (before.length > 0)
      warnings.push(
        before.length === 1
          ? `Its payment of ${before[0]} would be dated before the invoice's new date ${values.date}.`
          : `${before.length} of its payments (from ${before[0]}) would be dated before the invoice's new date ${values.date}.`,
      );
  }
  return warnings;
}

/**
 * A new invoice's form filled from what was read off a bill (docs/decisions/1149-invoice-from-a-file.md): each
 * field the reading found replaces the empty form's, and is named in `read` so the form marks it; an entity only
 * when the reading matched one of `entities` (the active ones), with its flow.
 */
export function invoiceFormFromReading(
  empty: InvoiceFormValues,
  reading: BillReadingResult,
  entities: readonly Bill[],
): { values: InvoiceFormValues; read: InvoiceField[] } {
  const values = { ...empty };
  const read: InvoiceField[] = [];
  const entity = entities.find((bill) => bill.id === reading.billId);
  if (entity) {
    values.billId = entity.id;
    values.flow = flowFor(values.flow, entity.internal);
    read.push('billId');
  }
  if (reading.amount !== null) {
    values.amount = amountInputText(reading.amount);
    read.push('amount');
  }
  if (reading.date !== null) {
    values.date = reading.date;
    read.push('date');
  }
  if (reading.dueDate !== null && (reading.date === null || reading.dueDate >= reading.date)) {
    values.dueDate = reading.dueDate;
    read.push('dueDate');
  }
  return { values, read };
}
