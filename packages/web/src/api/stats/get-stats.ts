import type { Stats } from '@billfold/contract/stats';
import { useQuery } from '@tanstack/react-query';
import { type EntryFilterParams, toEntryQuery } from '../invoices/list-invoices.ts';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const statsQueryKey = (filters: EntryFilterParams) => ['entries', 'stats', toEntryQuery(filters)] as const;

/** `GET /entries/stats` with the list filters (no paging). */
export function getStats(filters: EntryFilterParams): Promise<Outcome<Stats>> {
  return attempt<Stats>('GET', '/entries/stats', { query: toEntryQuery(filters) });
}

/** A failed load is the query's error: the stats say they could not be loaded (docs/product.md, Calls and failures). */
export function useStats(filters: EntryFilterParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: statsQueryKey(filters),
    queryFn: async () => dataOf(await getStats(filters)),
    enabled: options.enabled ?? true,
  });
}
