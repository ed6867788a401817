import type { BillOverviewList, BillOverviewQuery, BillSortField } from '@billfold/contract/bills';
import type { SortOrder } from '@billfold/contract/entries';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QueryParams } from '../client.ts';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** What the Entities page asks for (docs/api/README.md, Entities (/bills)): its search, order and page. */
export interface EntityOverviewParams {
  status: NonNullable<BillOverviewQuery['status']>;
  name: string;
  categories: readonly string[];
  sortField: BillSortField | null;
  sortOrder: SortOrder;
  pageNum: number;
  pageSize: number;
  /** The user's own date, for what is overdue. */
  today: string;
}

/** The parameters as query values, keys in a fixed order (equal queries share a cache entry); empty ones left out. */
export function toOverviewQuery(params: EntityOverviewParams): QueryParams {
  const query: QueryParams = { status: params.status };
  const name = params.name.trim();
  if (name) query.name = name;
  if (params.categories.length > 0) query.category = [...params.categories];
  if (params.sortField) {
    query.sortField = params.sortField;
    query.sortOrder = params.sortOrder;
  }
  query.pageNum = params.pageNum;
  query.pageSize = params.pageSize;
  query.today = params.today;
  return query;
}

export const entityOverviewQueryKey = (params: EntityOverviewParams) =>
  ['bills', 'overview', toOverviewQuery(params)] as const;

/** `GET /bills/overview`: one page of entities with open balances, next due date and schedules, and their total. */
export function getEntityOverview(
  params: EntityOverviewParams,
  signal?: AbortSignal,
): Promise<Outcome<BillOverviewList>> {
  return attempt<BillOverviewList>('GET', '/bills/overview', {
    query: toOverviewQuery(params),
    ...(signal ? { signal } : {}),
  });
}

/**
 * One page; the previous page stays on screen while the next one loads. Entity, invoice and payment writes mark it
 * stale (`invalidateDomain`). A failed load is the query's error: the page then shows no entities.
 */
export function useEntityOverview(params: EntityOverviewParams) {
  return useQuery({
    queryKey: entityOverviewQueryKey(params),
    queryFn: async ({ signal }) => dataOf(await getEntityOverview(params, signal)),
    placeholderData: keepPreviousData,
  });
}
