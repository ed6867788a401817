import type { EntryFilters } from '@billfold/contract/schemas';
import { isSqlite } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import { rollupCount, rollupDateSeek } from '../../db/rollups.ts';
import {
  afterKey,
  CATEGORY_SORTS,
  type EntrySort,
  filteredEntries,
  orderEntries,
  type PlanHints,
  SORT_COLUMNS,
  type SortKey,
} from './entries.query.ts';
import { ENTRY_VIEW_COLUMNS } from './entry.mapper.ts';

/** Every query in balance order states the paid filter on the balance (`PlanHints.balanceBound`), on both databases. */
function sortHints(sort: EntrySort, hints: PlanHints = {}): PlanHints {
  return { ...hints, balanceBound: SORT_COLUMNS[sort.field] === 'balance_cents' };
}

/** What the CSV export needs beyond the entry view: the key of every sort and the stored balance. */
export const EXPORT_COLUMNS = [...ENTRY_VIEW_COLUMNS, 'bill_name_key', 'balance_cents'] as const;

export class EntriesListRepository extends Repository {
  /** Number of live entries matching the filters. */
  async count(userId: number, filters: EntryFilters): Promise<number> {
    // Most filter sets are counted from the rollup tables in well under a millisecond (ADR 0400).
    const rolled = await rollupCount(this.db, userId, filters);
    if (rolled !== null) return rolled;
    const row = await filteredEntries(this.db, userId, filters)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** One page in the requested order: an index walk over `entries_live_<sort>`, no sort step. */
  pageQuery(userId: number, filters: EntryFilters, sort: EntrySort, offset: number, limit: number, hints?: PlanHints) {
    return orderEntries(
      filteredEntries(this.db, userId, filters, sortHints(sort, hints)).select(ENTRY_VIEW_COLUMNS),
      sort,
    )
      .limit(limit)
      .offset(offset);
  }

  /**
   * The total and one page. On SQLite the page's plan depends on the total (`planHints`); the queries run
   * one after the other there anyway (one connection), while PostgreSQL runs them side by side.
   */
  async countAndPage(userId: number, filters: EntryFilters, sort: EntrySort, offset: number, limit: number) {
    if (!isSqlite(this.db)) {
      return Promise.all([this.count(userId, filters), this.page(userId, filters, sort, offset, limit)]);
    }
    const total = await this.count(userId, filters);
    const hints = await this.planHints(userId, filters, sort, offset + limit, total);
    return [total, await this.page(userId, filters, sort, offset, limit, hints)] as const;
  }

  async page(userId: number, filters: EntryFilters, sort: EntrySort, offset: number, limit: number, hints?: PlanHints) {
    // A deep page in date order starts at the day the rollups say holds row `offset` (ADR 0400).
    const seek = sort.field === 'date' ? await rollupDateSeek(this.db, userId, filters, sort.order, offset) : null;
    if (!seek) return this.pageQuery(userId, filters, sort, offset, limit, hints).execute();
    const { offset: rest, ...dates } = seek;
    return this.pageQuery(userId, { ...filters, ...dates }, sort, rest, limit).execute();
  }

  /**
   * SQLite: categories and a date range sorted by balance or amount can be read two ways. The range plan
   * reads every row of the categories in the range (at least the `matching` ones) and sorts them; a walk of
   * the category's sort index reads rows in order until it has `rows` matches, about `rows × scanned ÷
   * matching`, where the rows scanned are at most the user's whole ledger. So it walks when `rows × ledger <
   * matching²`: a wide range that matches thousands of rows. PostgreSQL weighs this from its own statistics.
   */
  async planHints(
    userId: number,
    filters: EntryFilters,
    sort: EntrySort,
    rows: number,
    matching: number,
  ): Promise<PlanHints> {
    const ranged = filters.startDate !== undefined || filters.endDate !== undefined;
    if (!CATEGORY_SORTS.has(SORT_COLUMNS[sort.field]) || !filters.categoryList?.length || !ranged) return {};
    const ledger = await this.count(userId, {});
    return rows * ledger < matching * matching ? { datesUnindexed: true } : {};
  }

  /** The next `limit` rows strictly after `after` (keyset paging: cost independent of depth). */
  chunkQuery(userId: number, filters: EntryFilters, sort: EntrySort, after: SortKey | null, limit: number) {
    let q = filteredEntries(this.db, userId, filters, sortHints(sort)).select(EXPORT_COLUMNS);
    if (after) q = afterKey(q, sort, after);
    return orderEntries(q, sort).limit(limit);
  }

  chunkAfter(userId: number, filters: EntryFilters, sort: EntrySort, after: SortKey | null, limit: number) {
    return this.chunkQuery(userId, filters, sort, after, limit).execute();
  }
}
