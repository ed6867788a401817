import type { EntryFilters } from '@billfold/contract/schemas';
import { Repository } from '../../db/repository.ts';
import { rollupCount, rollupDateSeek } from '../../db/rollups.ts';
import { afterKey, type EntrySort, filteredEntries, orderEntries, type SortKey } from './entries.query.ts';
import { ENTRY_VIEW_COLUMNS } from './entry.mapper.ts';

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
  pageQuery(userId: number, filters: EntryFilters, sort: EntrySort, offset: number, limit: number) {
    return orderEntries(filteredEntries(this.db, userId, filters).select(ENTRY_VIEW_COLUMNS), sort)
      .limit(limit)
      .offset(offset);
  }

  async page(userId: number, filters: EntryFilters, sort: EntrySort, offset: number, limit: number) {
    // A deep page in date order starts at the day the rollups say holds row `offset` (ADR 0400).
    const seek = sort.field === 'date' ? await rollupDateSeek(this.db, userId, filters, sort.order, offset) : null;
    if (!seek) return this.pageQuery(userId, filters, sort, offset, limit).execute();
    const { offset: rest, ...dates } = seek;
    return this.pageQuery(userId, { ...filters, ...dates }, sort, rest, limit).execute();
  }

  /** The next `limit` rows strictly after `after` (keyset paging: cost independent of depth). */
  chunkQuery(userId: number, filters: EntryFilters, sort: EntrySort, after: SortKey | null, limit: number) {
    let q = filteredEntries(this.db, userId, filters).select(EXPORT_COLUMNS);
    if (after) q = afterKey(q, sort, after);
    return orderEntries(q, sort).limit(limit);
  }

  chunkAfter(userId: number, filters: EntryFilters, sort: EntrySort, after: SortKey | null, limit: number) {
    return this.chunkQuery(userId, filters, sort, after, limit).execute();
  }
}
