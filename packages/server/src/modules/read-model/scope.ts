import { addDays, utcDate } from '@billfold/contract/dates';
import type { EntryFilters, Flow } from '@billfold/contract/entries';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { billNameKey } from '../bills/bill.mapper.ts';
import { BUILT_IN_ONLY, type CategoryBook } from '../categories/category-book.ts';
import { PAY_STATE } from '../payment-totals/payment-totals.ts';
import { ARCHIVED, ATTACHED, day, INCOMING, INTERNAL } from './ledger-index-columns.ts';
import type { EntriesSelect, SqlHints } from './scope-sql.ts';

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
  /**
   * The ledger's data version as the request began (the ledger group's hook reads it with the member check): the
   * ledger index answers at it or later without reading it again (`LedgerIndexes.read`). Not a filter.
   */
  version?: number;
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
  /** The ledger's data version as the request began, when known (`EntryScope.version`). */
  version?: number | undefined;
}

const distinct = <T>(values: readonly T[] | undefined): T[] | undefined => {
  const unique = [...new Set(values ?? [])];
  return unique.length > 0 ? unique : undefined;
};

// ------------------------------------------------------------------ the filters, declared once

/**
 * A scope as the ledger index compiles it against its columns (`LedgerIndex.conditions`): the flag bits it fixes,
 * bounds that include both ends, and lookup tables of the categories and entities it picks (null: every value).
 */
export type IndexConditions = typeof UNBOUNDED & {
  flagMask: number;
  flagWant: number;
  categories: Uint8Array | null;
  bills: Uint8Array | null;
};

/** Bounds that every invoice is within, and which of them a scope narrows (a test per slot only for those). */
export const UNBOUNDED = {
  dateLow: Number.NEGATIVE_INFINITY,
  dateHigh: Number.POSITIVE_INFINITY,
  dated: false,
  amountLow: Number.NEGATIVE_INFINITY,
  amountHigh: Number.POSITIVE_INFINITY,
  sized: false,
  payLow: 0,
  payHigh: 255,
  paying: false,
  dueLow: Number.NEGATIVE_INFINITY,
  dueHigh: Number.POSITIVE_INFINITY,
  owing: false,
  invoiceLow: Number.NEGATIVE_INFINITY,
  invoiceHigh: Number.POSITIVE_INFINITY,
  numbered: false,
};

/** What a filter's index step looks up in the ledger index: each category's slot, the entities by slot. */
export interface IndexLookups {
  categorySlots: ReadonlyMap<string, number>;
  bills: readonly { nameKey: string }[];
}

/**
 * How the rollup tables (docs/decisions/0400-rollups.md) answer a filter:
 * - `rows`: no rollup keys it; only a scan of `entries` (or the ledger index) answers a scope with it;
 * - `range`: no rollup keys it either, but a scope whose only such filter it is can be answered as "the rollups
 *   without it, minus the rows outside it" (`plan.ts` `complementOf`, from its `outside`);
 * - `dates`: the count tables key it by month and day (`rollups.ts`), the per-entity tables do not; it is a range
 *   as above too;
 * - otherwise its terms on the count tables `entry_*_counts` (null: they do not key it) and on a per-entity table
 *   `t` joined with `bills b`.
 */
type Rollups =
  | 'rows'
  | 'range'
  | 'dates'
  | { counts: ((s: EntryScope) => RawBuilder<unknown>[]) | null; bills: (s: EntryScope) => RawBuilder<unknown>[] };

/**
 * One filter of the API (its contract fields), declared once: how it is parsed into the scope, the scope fields
 * it sets, its clause over `entries`, how the rollups answer it, and its test over the ledger index's columns.
 * Every answer path reads these: `toScope`, `scopedEntries`, `countTableWhere` and `billTableWhere` (scope-sql.ts),
 * `needsRows` and `rollupAnswers` (rollups.ts), `complementOf` (plan.ts) and `LedgerIndex.conditions`.
 */
interface Filter {
  keys: readonly Exclude<keyof EntryScope, 'ledgerId'>[];
  parse: (f: EntryFilters, options: ScopeOptions, scope: EntryScope) => void;
  entries: (q: EntriesSelect, s: EntryScope, hints: SqlHints) => EntriesSelect;
  rollups: Rollups;
  /** For a `range` or `dates` filter: the base scope (the scope without it) below and above its range. */
  outside?: (s: EntryScope, base: EntryScope) => EntryScope[];
  index: (c: IndexConditions, s: EntryScope, lookups: IndexLookups) => void;
}

/**
 * Whether the row of `entries` (unaliased) has a file attached to it or to one of its live payments: two seeks,
 * of `attachments_entry` and of `payments_entry` then `attachments_payment`
 * (docs/decisions/1143-attachment-count-and-filter.md).
 */
const HAS_FILES = sql<SqlBool>`(exists (select 1 from attachments a where a.entry_id = entries.id)
  or exists (select 1 from payments p inner join attachments a on a.payment_id = p.id
    where p.entry_id = entries.id and p.recycled_at is null))`;

/** Fixes a flag bit of the index: `want` 1 asks it set, 0 clear. */
const flag = (c: IndexConditions, bit: number, want: boolean) => {
  c.flagMask |= bit;
  if (want) c.flagWant |= bit;
};

/** The filters in the order their clauses are written. */
export const FILTERS: readonly Filter[] = [
  {
    keys: ['startDate', 'endDate'],
    parse: (f, _, scope) => {
      if (f.startDate !== undefined) scope.startDate = f.startDate;
      if (f.endDate !== undefined) scope.endDate = f.endDate;
    },
    entries: (q, s, hints) => {
      const date = hints.datesUnindexed ? sql<string>`+${sql.ref('date')}` : sql.ref<string>('date');
      if (s.startDate !== undefined) q = q.where(date, '>=', s.startDate);
      if (s.endDate !== undefined) q = q.where(date, '<=', s.endDate);
      return q;
    },
    rollups: 'dates',
    outside: (s, base) => {
      const out: EntryScope[] = [];
      if (s.startDate !== undefined) out.push({ ...base, endDate: addDays(s.startDate, -1) });
      if (s.endDate !== undefined) out.push({ ...base, startDate: addDays(s.endDate, 1) });
      return out;
    },
    index: (c, s) => {
      if (s.startDate !== undefined) c.dateLow = day(s.startDate);
      if (s.endDate !== undefined) c.dateHigh = day(s.endDate);
    },
  },
  {
    keys: ['invoiceNumber'],
    parse: (f, _, scope) => {
      if (f.invoiceNum !== undefined) scope.invoiceNumber = f.invoiceNum;
    },
    entries: (q, s) => q.where('invoice_number', '=', s.invoiceNumber as number),
    rollups: 'rows',
    index: (c, s) => {
      c.invoiceLow = c.invoiceHigh = s.invoiceNumber as number;
    },
  },
  {
    keys: ['nameKeys'],
    parse: (f, _, scope) => {
      const nameKeys = distinct(f.partyList?.map((name) => billNameKey(name.trim())));
      if (nameKeys) scope.nameKeys = nameKeys;
    },
    entries: (q, s) => q.where('bill_name_key', 'in', s.nameKeys as string[]),
    rollups: { counts: null, bills: (s) => [sql`b.name_key in (${sql.join(s.nameKeys as string[])})`] },
    index: (c, s, lookups) => {
      const keys = new Set(s.nameKeys);
      c.bills = Uint8Array.from(lookups.bills, (b) => (keys.has(b.nameKey) ? 1 : 0));
    },
  },
  {
    keys: ['categories'],
    parse: (f, options, scope) => {
      const book = options.categories ?? BUILT_IN_ONLY;
      const categories = distinct(f.categoryList?.map((value) => book.filterName(value)));
      if (categories) scope.categories = categories;
    },
    entries: (q, s) => q.where('category', 'in', s.categories as string[]),
    rollups: {
      counts: (s) => [sql`category in (${sql.join(s.categories as string[])})`],
      bills: (s) => [sql`b.category in (${sql.join(s.categories as string[])})`],
    },
    index: (c, s, lookups) => {
      c.categories = new Uint8Array(256);
      for (const label of s.categories ?? []) {
        const slot = lookups.categorySlots.get(label);
        if (slot !== undefined) c.categories[slot] = 1;
      }
    },
  },
  {
    keys: ['minCents', 'maxCents'],
    parse: (f, _, scope) => {
      if (f.min !== undefined) scope.minCents = f.min;
      if (f.max !== undefined) scope.maxCents = f.max;
    },
    entries: (q, s) => {
      if (s.minCents !== undefined) q = q.where('amount_cents', '>=', s.minCents);
      if (s.maxCents !== undefined) q = q.where('amount_cents', '<=', s.maxCents);
      return q;
    },
    rollups: 'range',
    outside: (s, base) => {
      const out: EntryScope[] = [];
      if (s.minCents !== undefined && s.minCents > 0) out.push({ ...base, maxCents: s.minCents - 1 });
      if (s.maxCents !== undefined) out.push({ ...base, minCents: s.maxCents + 1 });
      return out;
    },
    index: (c, s) => {
      if (s.minCents !== undefined) c.amountLow = s.minCents;
      if (s.maxCents !== undefined) c.amountHigh = s.maxCents;
    },
  },
  {
    // The flow filter is the stored flow and internal flag; the stats leave internal entries out unless asked.
    keys: ['flow', 'internal'],
    parse: (f, options, scope) => {
      if (f.flow === 'income') Object.assign(scope, { flow: 'INCOMING', internal: 0 });
      if (f.flow === 'expense') Object.assign(scope, { flow: 'OUTGOING', internal: 0 });
      if (f.flow === 'internal') scope.internal = 1;
      if (f.flow === undefined && options.internalOnlyWhenAsked) scope.internal = 0;
    },
    entries: (q, s) => {
      if (s.flow !== undefined) q = q.where('flow', '=', s.flow);
      if (s.internal !== undefined) q = q.where('internal', '=', s.internal);
      return q;
    },
    rollups: {
      counts: (s) => [
        ...(s.flow === undefined ? [] : [sql`flow = ${s.flow}`]),
        ...(s.internal === undefined ? [] : [sql`internal = ${s.internal}`]),
      ],
      bills: (s) => [
        ...(s.flow === undefined ? [] : [sql`t.flow = ${s.flow}`]),
        ...(s.internal === undefined ? [] : [sql`b.internal = ${s.internal}`]),
      ],
    },
    index: (c, s) => {
      if (s.flow !== undefined) flag(c, INCOMING, s.flow === 'INCOMING');
      if (s.internal !== undefined) flag(c, INTERNAL, s.internal === 1);
    },
  },
  {
    keys: ['paid'],
    parse: (f, _, scope) => {
      if (f.paid !== undefined) scope.paid = f.paid;
    },
    entries: (q, s, hints) => {
      const paid = s.paid as PaidFilter;
      const f = PAID_FILTERS[paid];
      if (!hints.balanceBound) return q.where('pay_state', f.op, f.state);
      q = q.where('balance_cents', f.balance, 0);
      return paid === 'overpaid' || paid === 'partial' ? q.where('pay_state', f.op, f.state) : q;
    },
    rollups: {
      counts: (s) => [payStateIs(s, sql`pay_state`)],
      bills: (s) => [payStateIs(s, sql`t.pay_state`)],
    },
    index: (c, s) => {
      const { op, state } = PAID_FILTERS[s.paid as PaidFilter];
      if (op === '>=') c.payLow = state;
      else if (op === '<') c.payHigh = state - 1;
      else c.payLow = c.payHigh = state;
    },
  },
  {
    keys: ['archived'],
    parse: (f, _, scope) => {
      if (f.archives !== undefined) scope.archived = f.archives === 'true' ? 1 : 0;
    },
    entries: (q, s) => q.where('archived', '=', s.archived as 0 | 1),
    rollups: {
      counts: (s) => [sql`archived = ${s.archived}`],
      // An entity's `status` is 1 while it is active (ADR 0003 keeps its entries' `archived` equal).
      bills: (s) => [sql`b.status = ${s.archived === 1 ? 0 : 1}`],
    },
    index: (c, s) => flag(c, ARCHIVED, s.archived === 1),
  },
  {
    keys: ['hasAttachment'],
    parse: (f, _, scope) => {
      if (f.hasAttachment !== undefined) scope.hasAttachment = f.hasAttachment === 'true' ? 1 : 0;
    },
    entries: (q, s) => q.where(s.hasAttachment === 1 ? HAS_FILES : sql<SqlBool>`not ${HAS_FILES}`),
    rollups: 'rows',
    index: (c, s) => flag(c, ATTACHED, s.hasAttachment === 1),
  },
  {
    keys: ['due'],
    parse: (f, options, scope) => {
      const due = dueRange(f, options.today ?? utcDate(Date.now()));
      if (due) scope.due = due;
    },
    entries: (q, s) => {
      const due = s.due as DueRange;
      // Written as the partial index `entries_live_unpaid_due` states it, so both databases read it as a range.
      q = q.where('due_date', 'is not', null).where(sql.ref('pay_state'), '<', sql.lit(PAY_STATE.paid));
      if (due.from !== undefined) q = q.where('due_date', '>=', due.from);
      return q.where('due_date', '<=', due.to);
    },
    rollups: 'rows',
    // Unpaid invoices due within the range; no due date (NO_DUE) is past any `to`. After `paid`, which it narrows.
    index: (c, s) => {
      const due = s.due as DueRange;
      c.payHigh = Math.min(c.payHigh, PAY_STATE.paid - 1);
      if (due.from !== undefined) c.dueLow = day(due.from);
      c.dueHigh = day(due.to);
    },
  },
];

const payStateIs = (s: EntryScope, column: RawBuilder<unknown>) => {
  const f = PAID_FILTERS[s.paid as PaidFilter];
  return sql`${column} ${sql.raw(f.op)} ${f.state}`;
};

/** Whether the scope sets the filter. */
export const sets = (s: EntryScope, filter: Filter) => filter.keys.some((key) => s[key] !== undefined);

/** The one parse of the API's filters (already validated by the contract's `entryFilters`). */
export function toScope(ledgerId: number, f: EntryFilters, options: ScopeOptions = {}): EntryScope {
  const scope: EntryScope = options.version === undefined ? { ledgerId } : { ledgerId, version: options.version };
  for (const filter of FILTERS) filter.parse(f, options, scope);
  return scope;
}

export const hasDates = (s: EntryScope) => s.startDate !== undefined || s.endDate !== undefined;

/** Filters only the rows themselves can answer: no rollup keys them. */
export const needsRows = (s: EntryScope) =>
  FILTERS.some((filter) => (filter.rollups === 'rows' || filter.rollups === 'range') && sets(s, filter));
