import { addDays, utcDate } from '@billfold/contract/dates';
import type { EntryFilters, Flow } from '@billfold/contract/entries';
import { billNameKey } from '../bills/bill.mapper.ts';
import { BUILT_IN_ONLY, type CategoryBook } from '../categories/category-book.ts';
import { PAY_STATE } from '../payment-totals/payment-totals.ts';

/**
 * Step 1 of the read model (scope → plan → SQL → rows): the filters of a list, count, page seek, stats or
 * export request parsed ONCE into one normalised value. Every later step reads this value and nothing else, so
 * a filter cannot mean one thing in the grid and another in the stats, the rollups or the download.
 *
 * Normalisation: entity names become the stored case-insensitive keys (names are unique per ledger that way);
 * categories their stored names (`AUTO_LOAN`, `auto loan` name one built-in category, `salary` the ledger's own
 * "Salary"; an unknown one matches nothing);
 * the flow filter becomes the stored flow and internal flag; duplicates go; an empty list means "any".
 */
export interface EntryScope {
  ledgerId: number;
  /** Inclusive ISO dates. */
  startDate?: string;
  endDate?: string;
  invoiceNumber?: number;
  nameKeys?: readonly string[];
  categories?: readonly string[];
  /** Inclusive bounds on the amount, in cents. */
  minCents?: number;
  maxCents?: number;
  flow?: Flow;
  internal?: 0 | 1;
  paid?: PaidFilter;
  archived?: 0 | 1;
  /**
   * 1: invoices with a file attached to them or to one of their live payments; 0: those without
   * (docs/decisions/1143-attachment-count-and-filter.md).
   */
  hasAttachment?: 0 | 1;
  /** Unpaid invoices whose due date is in these inclusive ISO dates (`due=overdue`, `due=upcoming`). */
  due?: DueRange;
}

export interface DueRange {
  from?: string;
  to: string;
}

/** `due=upcoming` without `dueWithin`: the next 30 days. */
export const DEFAULT_DUE_WITHIN = 30;

/**
 * The due filter as dates, from `today` (the client's own date when it sends one, else the server's UTC date):
 * overdue is due before today, upcoming is due from today to today + `dueWithin` days. Both are unpaid only
 * (docs/decisions/1001-upcoming-and-overdue.md).
 */
export function dueRange(f: EntryFilters, serverToday: string): DueRange | undefined {
  if (f.due === undefined) return undefined;
  const today = f.today ?? serverToday;
  if (f.due === 'overdue') return { to: addDays(today, -1) };
  return { from: today, to: addDays(today, f.dueWithin ?? DEFAULT_DUE_WITHIN) };
}

export type PaidFilter = NonNullable<EntryFilters['paid']>;

/**
 * Each paid filter on the stored pay state, and the balance it implies (`derivePayment`): the balance is 0
 * exactly when an invoice is paid in full, so paid and unpaid are also "balance = 0" and "balance > 0".
 * Partial is "not paid and a paid total above zero": the balance strictly between 0 and the amount.
 */
export const PAID_FILTERS = {
  true: { op: '>=', state: PAY_STATE.paid, balance: '=' },
  false: { op: '<', state: PAY_STATE.paid, balance: '>' },
  overpaid: { op: '=', state: PAY_STATE.overpaid, balance: '=' },
  partial: { op: '=', state: PAY_STATE.partial, balance: '>' },
} as const satisfies Record<PaidFilter, { op: '>=' | '<' | '='; state: number; balance: '=' | '>' }>;

export interface ScopeOptions {
  /** The server's date (UTC) by its clock, for a due filter sent without `today`; the wall clock's when absent. */
  today?: string;
  /**
   * Leave internal entries out unless the flow filter asks for them (the stats: internal entries move money
   * between one's own accounts).
   */
  internalOnlyWhenAsked?: boolean;
  /** The ledger's own categories, when the category filter names one (`ReadModelRepository.categoryBook`); built-in only when absent. */
  categories?: CategoryBook | undefined;
}

const distinct = <T>(values: readonly T[] | undefined): T[] | undefined => {
  const unique = [...new Set(values ?? [])];
  return unique.length > 0 ? unique : undefined;
};

/** The one parse of the API's filters (already validated by the contract's `entryFilters`). */
export function toScope(ledgerId: number, f: EntryFilters, options: ScopeOptions = {}): EntryScope {
  const scope: EntryScope = { ledgerId };
  if (f.startDate !== undefined) scope.startDate = f.startDate;
  if (f.endDate !== undefined) scope.endDate = f.endDate;
  if (f.invoiceNum !== undefined) scope.invoiceNumber = f.invoiceNum;
  const nameKeys = distinct(f.partyList?.map((name) => billNameKey(name.trim())));
  if (nameKeys) scope.nameKeys = nameKeys;
  const book = options.categories ?? BUILT_IN_ONLY;
  const categories = distinct(f.categoryList?.map((value) => book.filterName(value)));
  if (categories) scope.categories = categories;
  if (f.min !== undefined) scope.minCents = f.min;
  if (f.max !== undefined) scope.maxCents = f.max;
  if (f.flow === 'income') Object.assign(scope, { flow: 'INCOMING', internal: 0 });
  if (f.flow === 'expense') Object.assign(scope, { flow: 'OUTGOING', internal: 0 });
  if (f.flow === 'internal') scope.internal = 1;
  if (f.flow === undefined && options.internalOnlyWhenAsked) scope.internal = 0;
  if (f.paid !== undefined) scope.paid = f.paid;
  if (f.archives !== undefined) scope.archived = f.archives === 'true' ? 1 : 0;
  if (f.hasAttachment !== undefined) scope.hasAttachment = f.hasAttachment === 'true' ? 1 : 0;
  const due = dueRange(f, options.today ?? utcDate(Date.now()));
  if (due) scope.due = due;
  return scope;
}

export const hasDates = (s: EntryScope) => s.startDate !== undefined || s.endDate !== undefined;

/** Filters only the rows themselves can answer: no rollup keys them. */
export const needsRows = (s: EntryScope) =>
  s.invoiceNumber !== undefined ||
  s.minCents !== undefined ||
  s.maxCents !== undefined ||
  s.due !== undefined ||
  s.hasAttachment !== undefined;
