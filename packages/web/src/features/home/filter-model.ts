/**
 * The filter panel's state and rules (docs/product.md, Filters; docs/product.md, Date mode; docs/product.md, Validation), as pure
 * functions: what the controls hold, how switching date mode changes the range, what is invalid, and which
 * `GET /entries` parameters it all means.
 */
import { isValidIsoDate, MAX_DATE, MIN_DATE } from '@billfold/contract/dates';
import { effectiveAmountBound, MESSAGES, validateAmountRange, validateDateRange } from '@billfold/contract/validation';
import { ENTRY_FILTER_NAMES, type EntryFilterParams } from '../../api/invoices/list-invoices.ts';
import { daysAgoIso, todayIso } from '../../lib/dates.ts';
import type { DueChoice } from '../../lib/due-links.ts';

export type FlowOption = 'OUTGOING' | 'INCOMING' | 'internal';
export type StatusOption = 'paid' | 'unpaid' | 'overpaid' | 'partial';
export type ArchiveOption = 'include' | 'only';
export type FilesOption = 'with' | 'without';
export type DueOption = DueChoice;
/** `false` active entities only, `true` archived too, `'only'` archived only. */
export type IncludeArchived = boolean | 'only';
export type DateMode = 'single' | 'range';

export const FLOW_OPTIONS: readonly { value: FlowOption; label: string }[] = [
  { value: 'OUTGOING', label: 'Expense' },
  { value: 'INCOMING', label: 'Income' },
  { value: 'internal', label: 'Internal' },
];
/**
 * Each label names exactly the states its filter returns, in the words the Paid icon uses for them ("Paid",
 * "Overpaid", "Unpaid", "In Progress"): `paid=true` is paid or overpaid, `paid=false` unpaid or in progress
 * (docs/decisions/0200-list-query-semantics.md; docs/decisions/0502-status-words.md).
 */
export const STATUS_OPTIONS: readonly { value: StatusOption; label: string }[] = [
  { value: 'paid', label: 'Paid or Overpaid' },
  { value: 'unpaid', label: 'Unpaid or In Progress' },
  { value: 'overpaid', label: 'Overpaid' },
  { value: 'partial', label: 'In Progress' },
];
export const DUE_OPTIONS: readonly { value: DueOption; label: string }[] = [
  { value: 'overdue', label: 'Overdue' },
  { value: 'next7', label: 'Next 7 days' },
  { value: 'next30', label: 'Next 30 days' },
];
/** Files attached to the invoice or to one of its payments (docs/decisions/1143-attachment-count-and-filter.md). */
export const FILES_OPTIONS: readonly { value: FilesOption; label: string }[] = [
  { value: 'with', label: 'With files' },
  { value: 'without', label: 'Without files' },
];
export const ARCHIVE_OPTIONS: readonly { value: ArchiveOption; label: string }[] = [
  { value: 'include', label: 'Include' },
  { value: 'only', label: 'Only' },
];

/** The filter fields (docs/product.md, Filters), saved under `filters`. */
export interface FilterFields {
  /** Digits only; empty means any. */
  invoice: string;
  category: string[];
  /** Entity names. */
  biller: string[];
  amountMin: number | null;
  amountMax: number | null;
  status: StatusOption | null;
  flow: FlowOption | null;
  /** Unpaid invoices that are overdue or due soon, as of the user's own date. */
  due: DueOption | null;
  /** Invoices with files attached (to them or their payments), or without. */
  files: FilesOption | null;
}

/** `YYYY-MM-DD` or null on each side. */
export interface DateRange {
  start: string | null;
  end: string | null;
}

/**
 * What the date fields say is wrong with what they show (half-typed, impossible, out of range), per side; Single
 * Date uses `start`. Not saved: a reload shows the last whole dates again.
 */
export interface DateProblems {
  start: string | null;
  end: string | null;
}

export const NO_DATE_PROBLEMS: DateProblems = { start: null, end: null };

export interface FilterState {
  fields: FilterFields;
  dateRange: DateRange;
  dateMode: DateMode;
  includeArchived: IncludeArchived;
  dateProblems: DateProblems;
}

export const EMPTY_FIELDS: FilterFields = {
  invoice: '',
  category: [],
  biller: [],
  amountMin: null,
  amountMax: null,
  status: null,
  flow: null,
  due: null,
  files: null,
};

/** The last 30 days with no end (docs/product.md, Timings and limits). */
export function defaultDateRange(now = new Date()): DateRange {
  return { start: daysAgoIso(30, now), end: null };
}

/** What the panel shows on a first visit and after Clear Filters. */
export function defaultFilterState(now = new Date()): FilterState {
  return {
    fields: { ...EMPTY_FIELDS },
    dateRange: defaultDateRange(now),
    dateMode: 'range',
    includeArchived: false,
    dateProblems: NO_DATE_PROBLEMS,
  };
}

// ---------- date mode (docs/product.md, Date mode) ----------

/**
 * Single Date with a start date: that whole day; with none: no dates. Date Range: the start stays, the end goes.
 */
export function switchDateMode(range: DateRange, mode: DateMode): DateRange {
  if (mode === 'single') return range.start ? { start: range.start, end: range.start } : { start: null, end: null };
  return { start: range.start, end: null };
}

/** Picking a date in Single Date mode selects that whole day; clearing it clears the range. */
export function pickSingleDate(date: string | null): DateRange {
  return { start: date, end: date };
}

// ---------- archives (docs/product.md, Filter panel) ----------

/** Include gives `true`, Only gives `'only'`, none gives `false`. */
export function archivesFromChoice(choice: ArchiveOption | null): IncludeArchived {
  if (choice === 'include') return true;
  if (choice === 'only') return 'only';
  return false;
}

export function choiceFromArchives(value: IncludeArchived): ArchiveOption | null {
  if (value === true) return 'include';
  if (value === 'only') return 'only';
  return null;
}

/** A second click on the selected option deselects it: the rule lives with the shared group. */
export { toggleChoice } from '../../components/ChoiceGroup.tsx';

// ---------- Invoice # (docs/product.md, Validation) ----------

const INVOICE_KEYS = new Set(['Backspace', 'Delete', 'Tab', 'ArrowLeft', 'ArrowRight']);
/** The server reads at most 16 digits. */
export const INVOICE_MAX_LENGTH = 16;

/**
 * Keys the Invoice # box accepts: digits, Backspace, Delete, Tab and the left/right arrows (docs/product.md, Validation). Enter
 * (search) and shortcuts with Ctrl or ⌘ (copy, paste, select all) pass too; pasted text is cleaned by
 * `cleanInvoiceInput`.
 */
export function isInvoiceKeyAllowed(event: { key: string; ctrlKey?: boolean; metaKey?: boolean }): boolean {
  if (event.ctrlKey || event.metaKey) return true;
  return /^\d$/.test(event.key) || INVOICE_KEYS.has(event.key) || event.key === 'Enter';
}

export function cleanInvoiceInput(text: string): string {
  return text.replace(/\D/g, '').slice(0, INVOICE_MAX_LENGTH);
}

/** The invoice number to search for: empty, or a whole number of at least 1 (`007` is 7). */
export function invoiceParam(text: string): string | undefined {
  const digits = cleanInvoiceInput(text).replace(/^0+/, '');
  return digits === '' ? undefined : digits;
}

/** Invoice numbers start at 1: a `0` (or `000`) would match nothing, so it is an error rather than ignored. */
export function validateInvoiceNumber(text: string): string | null {
  return text !== '' && invoiceParam(text) === undefined ? MESSAGES.invoiceNumberFromOne : null;
}

// ---------- validation (docs/product.md, Validation) ----------

export interface FilterErrors {
  /** On Invoice #: `Invoice numbers start at 1.` */
  invoice: string | null;
  /** On Min Amount: `Min must be less than or equal to Max.` */
  amount: string | null;
  /** On Start Date, Date Range mode only: `Start date must not exceed end date.` */
  date: string | null;
  /** A date field that does not show a usable date (it says why itself). */
  dateField: string | null;
}

export function validateFilters(state: FilterState): FilterErrors {
  const { start, end } = state.dateProblems;
  return {
    invoice: validateInvoiceNumber(state.fields.invoice),
    amount: validateAmountRange(state.fields.amountMin, state.fields.amountMax),
    date: state.dateMode === 'range' ? validateDateRange(state.dateRange.start, state.dateRange.end) : null,
    dateField: start ?? (state.dateMode === 'range' ? end : null),
  };
}

/** Search is disabled (and nothing is applied) while any error shows. */
export function hasErrors(errors: FilterErrors): boolean {
  return Object.values(errors).some((error) => error !== null);
}

/** A date field's edit: its whole date (or none) on that side, or the problem it shows, which keeps the filters. */
export function setDateField(
  state: FilterState,
  side: 'start' | 'end',
  date: string,
  problem: string | null,
): FilterState {
  const dateProblems = { ...state.dateProblems, [side]: problem };
  if (problem) return { ...state, dateProblems };
  const value = date === '' ? null : date;
  const dateRange = state.dateMode === 'single' ? pickSingleDate(value) : { ...state.dateRange, [side]: value };
  return { ...state, dateRange, dateProblems };
}

// ---------- the query (docs/api/README.md, Invoices (/entries)) ----------

const FLOW_PARAM: Record<FlowOption, NonNullable<EntryFilterParams['flow']>> = {
  INCOMING: 'income',
  OUTGOING: 'expense',
  internal: 'internal',
};
const PAID_PARAM: Record<StatusOption, NonNullable<EntryFilterParams['paid']>> = {
  paid: 'true',
  unpaid: 'false',
  overpaid: 'overpaid',
  partial: 'partial',
};

const DUE_PARAM: Record<DueOption, Pick<EntryFilterParams, 'due' | 'dueWithin'>> = {
  overdue: { due: 'overdue' },
  next7: { due: 'upcoming', dueWithin: 7 },
  next30: { due: 'upcoming', dueWithin: 30 },
};

/**
 * The panel showing `due` invoices: every other filter as it was, but no date range, since an overdue invoice
 * may be older than any range (the Home panel's and the top bar's links).
 */
export function showDue(state: FilterState, due: DueOption): FilterState {
  return {
    ...state,
    fields: { ...state.fields, due },
    dateRange: { start: null, end: null },
    dateProblems: NO_DATE_PROBLEMS,
  };
}

/** The `GET /entries` (and stats, export) filters that the panel's state means; `now` gives the user's today. */
export function toFilterParams(state: FilterState, now = new Date()): EntryFilterParams {
  const { fields, dateRange, includeArchived } = state;
  const params: EntryFilterParams = {};
  if (dateRange.start) params.startDate = dateRange.start;
  if (dateRange.end) params.endDate = dateRange.end;
  const invoiceNum = invoiceParam(fields.invoice);
  if (invoiceNum) params.invoiceNum = invoiceNum;
  if (fields.biller.length > 0) params.partyList = [...fields.biller];
  if (fields.category.length > 0) params.categoryList = [...fields.category];
  const min = effectiveAmountBound(fields.amountMin);
  const max = effectiveAmountBound(fields.amountMax);
  if (min !== null) params.min = min;
  if (max !== null) params.max = max;
  if (fields.flow) params.flow = FLOW_PARAM[fields.flow];
  if (fields.status) params.paid = PAID_PARAM[fields.status];
  if (fields.files) params.hasAttachment = fields.files === 'with' ? 'true' : 'false';
  // Include: no parameter (both); Only: archived only; none: active only.
  if (includeArchived === 'only') params.archives = 'true';
  else if (includeArchived === false) params.archives = 'false';
  if (fields.due) Object.assign(params, DUE_PARAM[fields.due], { today: todayIso(now) });
  return params;
}

/**
 * The filters that narrow the list beyond the defaults, one per control: every filter of the contract but the
 * dates (which count once, below) and `dueWithin` and `today`, which only qualify `due`.
 */
const NOT_COUNTED = new Set<string>(['startDate', 'endDate', 'dueWithin', 'today']);
const COUNTED_PARAMS = ENTRY_FILTER_NAMES.filter((name) => !NOT_COUNTED.has(name));

/**
 * How many filters differ from a first visit's (no filters, the last 30 days, active entities): the count on the
 * Filters button of phones and tablets, whose panel is folded away.
 */
export function activeFilterCount(state: FilterState, now = new Date()): number {
  const params = toFilterParams(state, now);
  const defaults = toFilterParams(defaultFilterState(now), now);
  const dates = params.startDate !== defaults.startDate || params.endDate !== defaults.endDate ? 1 : 0;
  const differ = (key: (typeof COUNTED_PARAMS)[number]) =>
    JSON.stringify(params[key]) !== JSON.stringify(defaults[key]);
  return dates + COUNTED_PARAMS.filter(differ).length;
}

// ---------- restoring saved state ----------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function amountOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function oneOf<T extends string>(value: unknown, options: readonly { value: T }[]): T | null {
  return options.some((option) => option.value === value) ? (value as T) : null;
}

function dateOrNull(value: unknown): string | null {
  return typeof value === 'string' && isValidIsoDate(value) && value >= MIN_DATE && value <= MAX_DATE ? value : null;
}

/**
 * Saved settings are untrusted text from session storage: each part is read on its own, and anything missing or
 * malformed takes its default.
 */
export function restoreFilterState(
  saved: { filters?: unknown; dateRange?: unknown; dateMode?: unknown; includeArchived?: unknown },
  now = new Date(),
): FilterState {
  const fallback = defaultFilterState(now);
  const f = isRecord(saved.filters) ? saved.filters : {};
  const fields: FilterFields = {
    invoice: typeof f.invoice === 'string' ? cleanInvoiceInput(f.invoice) : '',
    category: stringList(f.category),
    biller: stringList(f.biller),
    amountMin: amountOrNull(f.amountMin),
    amountMax: amountOrNull(f.amountMax),
    status: oneOf(f.status, STATUS_OPTIONS),
    flow: oneOf(f.flow, FLOW_OPTIONS),
    due: oneOf(f.due, DUE_OPTIONS),
    files: oneOf(f.files, FILES_OPTIONS),
  };
  const dateRange = isRecord(saved.dateRange)
    ? { start: dateOrNull(saved.dateRange.start), end: dateOrNull(saved.dateRange.end) }
    : fallback.dateRange;
  const dateMode: DateMode = saved.dateMode === 'single' || saved.dateMode === 'range' ? saved.dateMode : 'range';
  const includeArchived: IncludeArchived =
    saved.includeArchived === true || saved.includeArchived === 'only' ? saved.includeArchived : false;
  return { fields, dateRange, dateMode, includeArchived, dateProblems: NO_DATE_PROBLEMS };
}
