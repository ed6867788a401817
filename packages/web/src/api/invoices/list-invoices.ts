import type { Entry, SortField } from '@billfold/contract/entries';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest, type QueryParams } from '../client.ts';

/**
 * The list filters of `GET /entries`, `/entries/stats` and `/entries/export` (API.md), as the server reads them.
 * Absent keys are not sent; arrays repeat their key.
 */
export interface EntryFilterParams {
  startDate?: string;
  endDate?: string;
  invoiceNum?: string;
  partyList?: readonly string[];
  categoryList?: readonly string[];
  min?: number;
  max?: number;
  flow?: 'income' | 'expense' | 'internal';
  paid?: 'true' | 'false' | 'overpaid' | 'partial';
  /** `'false'` active entities only, `'true'` archived only, absent both. */
  archives?: 'true' | 'false';
  /** Unpaid and due before `today`, or due from `today` to `today` + `dueWithin` days. */
  due?: 'overdue' | 'upcoming';
  dueWithin?: number;
  /** The user's own date, sent with `due`. */
  today?: string;
}

export type SortOrder = 'asc' | 'desc';

export interface EntrySortParams {
  sortField?: SortField;
  sortOrder?: SortOrder;
}

export interface EntryPageParams extends EntrySortParams {
  /** 0-based. */
  pageNum: number;
  /** 1 to 100. */
  pageSize: number;
}

export type EntryListParams = EntryFilterParams & EntryPageParams;

export interface EntryPage {
  entries: Entry[];
  total: number;
}

/** The parameters as query values, keys in a fixed order (so equal queries share a cache entry). */
export function toEntryQuery(params: EntryFilterParams & Partial<EntryPageParams>): QueryParams {
  const query: QueryParams = {};
  const keys = [
    'startDate',
    'endDate',
    'invoiceNum',
    'partyList',
    'categoryList',
    'min',
    'max',
    'flow',
    'paid',
    'archives',
    'due',
    'dueWithin',
    'today',
    'pageNum',
    'pageSize',
    'sortField',
    'sortOrder',
  ] as const;
  for (const key of keys) {
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

/**
 * `GET /entries`: one page of invoices and the number of all that match. `{entries, total}`, or a bare array
 * (spec §3); on any failure an empty page, logged to the console (spec §7).
 */
export async function listInvoices(params: EntryListParams, signal?: AbortSignal): Promise<EntryPage> {
  try {
    const body = await apiRequest<unknown>('GET', '/entries', {
      query: toEntryQuery(params),
      ...(signal ? { signal } : {}),
    });
    if (Array.isArray(body)) return { entries: body as Entry[], total: body.length };
    const page = body as Partial<EntryPage> | null;
    const entries = Array.isArray(page?.entries) ? page.entries : [];
    return { entries, total: typeof page?.total === 'number' ? page.total : entries.length };
  } catch (error) {
    if (signal?.aborted) throw error;
    console.error('[api] GET /entries failed', error);
    return { entries: [], total: 0 };
  }
}

/** One page; the previous page stays on screen while the next one loads. Invalidate `['entries']` after writes. */
export function useInvoices(params: EntryListParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: invoicesQueryKey(params),
    queryFn: ({ signal }) => listInvoices(params, signal),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
