import { DEFAULT_LEDGER_INDEX_OPTIONS, type LedgerIndexOptions } from './ledger-indexes.ts';
import { rollupAnswers } from './rollups.ts';
import { type EntryScope, FILTERS, hasDates, sets } from './scope.ts';
import { type EntrySort, SORT_COLUMNS, type SortColumn, type SqlHints } from './scope-sql.ts';

/**
 * Step 2 of the read model: for a scope (and a sort and a depth), which way each answer is read. Every choice
 * here changes the cost, never the rows: the tests run each path, with small thresholds, against a plain
 * reference (test/read-model.test.ts).
 */

/** The thresholds that pick the large-ledger paths. Options, so that tests can reach every path on small data. */
export interface ReadModelOptions {
  /** The ledger indexes in memory (ledger-indexes.ts); `maxBytes: 0` answers every read from SQL. */
  ledgerIndex: LedgerIndexOptions;
  /** From this offset a page in date order starts at the day the rollups say holds its first row. */
  seekFromOffset: number;
  /** Above this many payments on a side, its largest one is found walking `payments_live_amount` from the top. */
  walkFromPayments: number;
}

export const DEFAULT_READ_MODEL_OPTIONS: ReadModelOptions = {
  ledgerIndex: DEFAULT_LEDGER_INDEX_OPTIONS,
  // Below it the index walk is cheaper than the seek's statement.
  seekFromOffset: 5_000,
  // A broad selection meets one of its payments within a few of the largest; a narrow one sums its own.
  walkFromPayments: 100_000,
};

/** Sorts with a second index `entries_live_category_<x>` (docs/decisions/0402-category-sorts.md). */
export const CATEGORY_SORTS: ReadonlySet<SortColumn> = new Set<SortColumn>(['balance_cents', 'amount_cents']);

/** The total: from the rollups when they answer the scope, else a count over `entries`. */
export const countFromRollups = (s: EntryScope) => rollupAnswers(s).count;

/** A page in date order deep enough to seek, on a scope the day counts answer. */
export const seeks = (s: EntryScope, sort: EntrySort, offset: number, o: ReadModelOptions) =>
  sort.field === 'date' && offset >= o.seekFromOffset && rollupAnswers(s).seek;

/**
 * How a page or export chunk is written. Balance sorts state the paid filter on the balance (both databases).
 * On SQLite, categories and a date range sorted by balance or amount can be read two ways: the range plan
 * reads every row of the categories in the range (at least the `matching` ones) and sorts them; a walk of the
 * category's sort index reads about `rows × scanned ÷ matching`, where the rows scanned are at most the
 * ledger's whole `ledger`. So it walks when `rows × ledger < matching²`. PostgreSQL weighs this from its own
 * statistics. `counts` is only called when the choice depends on them.
 */
export async function sqlHints(
  s: EntryScope,
  sort: EntrySort,
  sqlite: boolean,
  rows: number,
  counts: () => Promise<{ matching: number; ledger: number }>,
): Promise<SqlHints> {
  const column = SORT_COLUMNS[sort.field];
  const hints: SqlHints = { balanceBound: column === 'balance_cents' };
  if (!sqlite || !CATEGORY_SORTS.has(column) || !s.categories || !hasDates(s)) return hints;
  const { matching, ledger } = await counts();
  return rows * ledger < matching * matching ? { ...hints, datesUnindexed: true } : hints;
}

/** The largest payment of a side: walked from the top for a broad selection, summed over a narrow one. */
export const walksForLargestPayment = (payments: number, o: ReadModelOptions) => payments > o.walkFromPayments;

/** The stats' sums: from the per-entity rollups when they answer the scope, else aggregated over `entries`. */
export const statsFromRollups = (s: EntryScope) => rollupAnswers(s).stats;

/**
 * A scope with one range (dates, or amounts) that the rollups answer without it: "everything but the range"
 * from the rollups, minus the rows outside the range. The `outside` scopes are the base scope below and
 * above the range; the repository reads them when they are the smaller side (wide ranges, the slow ones).
 */
export interface Complement {
  base: EntryScope;
  outside: EntryScope[];
}

export function complementOf(s: EntryScope): Complement | null {
  // Each filter the rollups cannot answer must be the one range: a base with another (a file, a due date) is not theirs.
  if (FILTERS.some((filter) => filter.rollups === 'rows' && sets(s, filter))) return null;
  const ranges = FILTERS.filter((filter) => filter.outside !== undefined && sets(s, filter));
  const range = ranges[0];
  if (ranges.length !== 1 || range?.outside === undefined) return null;
  const base: EntryScope = { ...s };
  for (const key of range.keys) delete base[key];
  return { base, outside: range.outside(s, base) };
}
