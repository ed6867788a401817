import type { BillList } from '@billfold/contract/bills';
import { addDays } from '@billfold/contract/dates';
import {
  type EntryFilters,
  type EntryList,
  SORT_FIELDS,
  SORT_ORDERS,
  type SortField,
  type SortOrder,
} from '@billfold/contract/entries';
import { fromCents } from '@billfold/contract/money';
import type { Random } from './random.ts';

/** One combination of the filter panel, as a model reads it and as a query string. */
export interface Combination {
  startDate?: string;
  endDate?: string;
  invoiceNum?: number;
  parties?: string[];
  categories?: string[];
  min?: number;
  max?: number;
  flow?: NonNullable<EntryFilters['flow']>;
  paid?: NonNullable<EntryFilters['paid']>;
  archives?: NonNullable<EntryFilters['archives']>;
  hasAttachment?: NonNullable<EntryFilters['hasAttachment']>;
  due?: NonNullable<EntryFilters['due']>;
  dueWithin?: number;
  /** Sent as `today`; without it the server's date (the test clock's) counts. */
  today?: string;
  sortField: SortField;
  sortOrder: SortOrder;
}

/** What a draw picks its values from: the ledger's entities (name and category side by side), numbers and days. */
export interface DrawSource {
  names: readonly string[];
  categories: readonly string[];
  invoiceNumbers: readonly number[];
  /** Dates are drawn from `firstDay` and the `days` after it. */
  firstDay: string;
  days: number;
  /** The ledger has attachments: the `hasAttachment` filter is drawn too. */
  attachments?: boolean;
}

const spell = (r: Random, s: string) => r.pick([s, s.toUpperCase(), s.toLowerCase().replaceAll(' ', '_')]);

/** Every field of the filter panel set or not on its own, any of the 12 sorts either way: no case is picked by hand. */
export function drawCombination(r: Random, from: DrawSource): Combination {
  const day = () => addDays(from.firstDay, r.int(from.days));
  const c: Combination = { sortField: r.pick(SORT_FIELDS), sortOrder: r.pick(SORT_ORDERS) };
  if (r.chance(0.35)) {
    const kind = r.int(4);
    const [a, b] = [day(), day()].sort();
    if (kind === 0) [c.startDate, c.endDate] = [a, a]; // single date
    if (kind === 1) [c.startDate, c.endDate] = [a, b];
    if (kind === 2) c.startDate = a;
    if (kind === 3) c.endDate = b;
  }
  if (r.chance(0.05)) c.invoiceNum = r.chance(0.8) ? r.pick(from.invoiceNumbers) : 999_999;
  if (r.chance(0.25)) {
    c.parties = Array.from({ length: 1 + r.int(3) }, () => spell(r, r.pick(from.names)));
    if (r.chance(0.1)) c.parties.push('Nobody Inc');
  }
  if (r.chance(0.3)) c.categories = Array.from({ length: 1 + r.int(3) }, () => spell(r, r.pick(from.categories)));
  if (r.chance(0.3)) {
    const [lo, hi] = [r.int(60_000), r.int(60_000)].sort((x, y) => x - y);
    if (r.chance(0.7)) c.min = lo;
    if (r.chance(0.7)) c.max = hi;
  }
  if (r.chance(0.35)) c.flow = r.pick(['income', 'expense', 'internal'] as const);
  if (r.chance(0.4)) c.paid = r.pick(['true', 'false', 'overpaid', 'partial'] as const);
  if (r.chance(0.3)) c.archives = r.pick(['true', 'false'] as const);
  if (from.attachments && r.chance(0.3)) c.hasAttachment = r.pick(['true', 'false'] as const);
  if (r.chance(0.3)) {
    c.due = r.pick(['overdue', 'upcoming'] as const);
    if (c.due === 'upcoming' && r.chance(0.8)) c.dueWithin = r.pick([0, 7, 30, 90, 366]);
    if (r.chance(0.85)) c.today = day();
  }
  return c;
}

/** The combination's filters as `GET /entries` reads them (no sort, no page). */
export function filterQuery(c: Combination): string {
  const q = new URLSearchParams();
  if (c.startDate) q.set('startDate', c.startDate);
  if (c.endDate) q.set('endDate', c.endDate);
  if (c.invoiceNum !== undefined) q.set('invoiceNum', String(c.invoiceNum));
  for (const p of c.parties ?? []) q.append('partyList', p);
  for (const k of c.categories ?? []) q.append('categoryList', k);
  if (c.min !== undefined) q.set('min', fromCents(c.min).toFixed(2));
  if (c.max !== undefined) q.set('max', fromCents(c.max).toFixed(2));
  if (c.flow) q.set('flow', c.flow);
  if (c.paid) q.set('paid', c.paid);
  if (c.archives) q.set('archives', c.archives);
  if (c.hasAttachment) q.set('hasAttachment', c.hasAttachment);
  if (c.due) q.set('due', c.due);
  if (c.dueWithin !== undefined) q.set('dueWithin', String(c.dueWithin));
  if (c.today) q.set('today', c.today);
  return q.toString();
}

/**
 * What to draw from, read from the ledger as it stands through `get` (a GET of the API answering its body): its
 * entities' names and categories and its first hundred invoice numbers.
 */
export async function drawSourceOf(
  get: (path: string) => Promise<{ body: string }>,
  days: Pick<DrawSource, 'firstDay' | 'days' | 'attachments'>,
): Promise<DrawSource> {
  const bills = JSON.parse((await get('/bills?status=all')).body) as BillList;
  const live = JSON.parse((await get('/entries?pageSize=100&archives=true')).body) as EntryList;
  return {
    names: bills.billDTOList.map((b) => b.name),
    categories: bills.billDTOList.map((b) => b.category),
    invoiceNumbers: live.entries.map((e) => e.invoiceId),
    ...days,
  };
}
