import type { RecycleList } from '@billfold/contract/recycle';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const recycleQueryKey = ['recycle', 'list'] as const;

/** `GET /recycle`: items deleted in the last 14 days, newest first. */
export function listRecycle(): Promise<Outcome<RecycleList>> {
  return attempt<RecycleList>('GET', '/recycle');
}

/** A failed load is the query's error: the bin says so rather than showing itself empty. */
export function useRecycleBin() {
  return useQuery({
    queryKey: recycleQueryKey,
    queryFn: async () => dataOf(await listRecycle()).recycleItems,
    staleTime: 0,
  });
}
