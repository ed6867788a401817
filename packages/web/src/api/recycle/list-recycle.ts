import type { RecycleItem } from '@billfold/contract/recycle';
import { useQuery } from '@tanstack/react-query';
import { readList } from '../outcome.ts';

export const recycleQueryKey = ['recycle', 'list'] as const;

/** `GET /recycle`: items deleted in the last 14 days, newest first; throws when the bin could not be loaded. */
export function listRecycle(): Promise<RecycleItem[]> {
  return readList<RecycleItem>('/recycle', (body) =>
    Array.isArray(body) ? (body as RecycleItem[]) : (body as { recycleItems?: RecycleItem[] } | null)?.recycleItems,
  );
}

export function useRecycleBin() {
  return useQuery({ queryKey: recycleQueryKey, queryFn: listRecycle, staleTime: 0 });
}
