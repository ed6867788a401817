import { type EntriesQuery, type EntryFilters, type EntryList, entryFilters } from '@billfold/contract/entries';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QueryParams } from '../client.ts';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** A filter's value as the query string carries it: a number may travel as its digits, a list read-only. */
type QueryValueOf<T> = T extends readonly (infer Item)[] ? readonly Item[] : T extends number ? number | string : T;

/**
 * The list filters of `GET /entries`, `/entries/stats` and `/entries/export`
 * (docs/api/README.md, Invoices (/entries)): the contract's names and choices. Absent keys are not sent; arrays repeat their key.
 */
export type EntryFilterParams = { [Name in keyof EntryFilters]?: QueryValueOf<NonNullable<EntryFilters[Name]>> };

/** The filters' names, in the contract's order. */
export const ENTRY_FILTER_NAMES = Object.keys(entryFilters.shape) as (keyof EntryFilters)[];

export type EntrySortParams = Pick<EntriesQuery, 'sortField' | 'sortOrder'>;

/** A page: `pageNum` 0-based, `pageSize` 1 to 100. */
export type EntryPageParams = EntrySortParams & Required<Pick<EntriesQuery, 'pageNum' | 'pageSize'>>;

export type EntryListParams = EntryFilterParams & EntryPageParams;

/** Paging and sorting, after the filters. */
const PAGE_AND_SORT_NAMES = [
  'pageNum',
  'pageSize',
  'sortField',
  'sortOrder',
] as const satisfies readonly (keyof EntriesQuery & keyof EntryPageParams)[];

/** The parameters as query values, keys in a fixed order (so equal queries share a cache entry). */
export function toEntryQuery(params: EntryFilterParams & Partial<EntryPageParams>): QueryParams {
  const query: QueryParams = {};
  for (const key of [...ENTRY_FILTER_NAMES, ...PAGE_AND_SORT_NAMES]) {
    const value = params[key];
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[key] = [...value];
    } else {
      query[key] = value as string | number;
    }
  }
  return query;
}

export const invoicesQueryKey = (params: EntryListParams) => ['entries', 'list', toEntryQuery(params)] as const;

/** `GET /entries`: one page of invoices and the number of all that match. */
export function listInvoices(params: EntryListParams, signal?: AbortSignal): Promise<Outcome<EntryList>> {
  return attempt<EntryList>('GET', '/entries', { query: toEntryQuery(params), ...(signal ? { signal } : {}) });
}

/**
 * One page; the previous page stays on screen while the next one loads. Invalidate `['entries']` after writes. A
 * failed load is the query's error: the grid then shows no invoices (docs/product.md, Calls and failures).
 */
export function useInvoices(params: EntryListParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: invoicesQueryKey(params),
    queryFn: async ({ signal }) => dataOf(await listInvoices(params, signal)),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
