import type { TrendInterval, Trends } from '@billfold/contract/trends';
import { useQuery } from '@tanstack/react-query';
import { type EntryFilterParams, toEntryQuery } from '../invoices/list-invoices.ts';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

const trendsQuery = (filters: EntryFilterParams, interval: TrendInterval) => ({ ...toEntryQuery(filters), interval });

export const trendsQueryKey = (filters: EntryFilterParams, interval: TrendInterval) =>
  ['entries', 'trends', trendsQuery(filters, interval)] as const;

/** `GET /entries/trends` with the list filters and an interval. */
export function getTrends(filters: EntryFilterParams, interval: TrendInterval): Promise<Outcome<Trends>> {
  return attempt<Trends>('GET', '/entries/trends', { query: trendsQuery(filters, interval) });
}

/** A failed load is the query's error: the card says it could not be loaded (docs/product.md, Calls and failures). */
export function useTrends(filters: EntryFilterParams, interval: TrendInterval) {
  return useQuery({
    queryKey: trendsQueryKey(filters, interval),
    queryFn: async () => dataOf(await getTrends(filters, interval)),
  });
}
