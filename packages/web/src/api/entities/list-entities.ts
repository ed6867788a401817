import type { BillList, BillQuery } from '@billfold/contract/bills';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `?status=`: active entities, archived ones, or both (the server's default when absent). */
export type EntityStatusFilter = NonNullable<BillQuery['status']>;

export const entitiesQueryKey = (status?: EntityStatusFilter) => ['bills', 'list', status ?? 'all'] as const;

/** `GET /bills?status=`: the user's non-recycled entities sorted by name. */
export function listEntities(status?: EntityStatusFilter): Promise<Outcome<BillList>> {
  return attempt<BillList>('GET', '/bills', status ? { query: { status } } : {});
}

/**
 * The entity list; invalidate `['bills']` after creating, editing, archiving or restoring an entity. A failed load
 * is the query's error: screens show no entities then (docs/product.md, Calls and failures).
 */
export function useEntities(status?: EntityStatusFilter) {
  return useQuery({
    queryKey: entitiesQueryKey(status),
    queryFn: async () => dataOf(await listEntities(status)).billDTOList,
  });
}
