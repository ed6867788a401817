import type { Stats } from '@billfold/contract/stats';
import { useQuery } from '@tanstack/react-query';
import { getOne } from '../client.ts';
import { type EntryFilterParams, toEntryQuery } from '../invoices/list-invoices.ts';

export const statsQueryKey = (filters: EntryFilterParams) => ['entries', 'stats', toEntryQuery(filters)] as const;

/** `GET /entries/stats` with the list filters (no paging); null on any failure (spec §7). */
export function getStats(filters: EntryFilterParams): Promise<Stats | null> {
  return getOne<Stats>('/entries/stats', toEntryQuery(filters));
}

export function useStats(filters: EntryFilterParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: statsQueryKey(filters),
    queryFn: () => getStats(filters),
    enabled: options.enabled ?? true,
  });
}
