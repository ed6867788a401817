import type { Bill } from '@billfold/contract/bills';
import { useQuery } from '@tanstack/react-query';
import { getList } from '../client.ts';

/** `?status=`: active entities, archived ones, or both (the server's default when absent). */
export type BillStatusFilter = 'active' | 'inactive' | 'all';

export const entitiesQueryKey = (status?: BillStatusFilter) => ['bills', 'list', status ?? 'all'] as const;

/** `GET /bills?status=`: the user's non-recycled entities sorted by name; an empty list on any failure (spec §7). */
export function listEntities(status?: BillStatusFilter): Promise<Bill[]> {
  return getList<Bill>(
    '/bills',
    (body) => {
      if (Array.isArray(body)) return body as Bill[];
      return (body as { billDTOList?: Bill[] } | null)?.billDTOList;
    },
    status ? { status } : undefined,
  );
}

/** The entity list; invalidate `['bills']` after creating, editing, archiving or restoring an entity. */
export function useEntities(status?: BillStatusFilter) {
  return useQuery({ queryKey: entitiesQueryKey(status), queryFn: () => listEntities(status) });
}
