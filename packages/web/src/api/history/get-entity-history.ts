import type { HistoryResponse } from '@billfold/contract/history';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `GET /bills/{id}/history`: every change of an entity, oldest first: when, by whom, each field from and to. */
export function getEntityHistory(id: number): Promise<Outcome<HistoryResponse>> {
  return attempt<HistoryResponse>('GET', `/bills/${id}/history`);
}

/** A domain query: every write marks it stale, so the panel shows a change as soon as it is made. */
export function useEntityHistory(id: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['bills', 'history', id ?? 0],
    queryFn: async () => dataOf(await getEntityHistory(id ?? 0)).history,
    enabled: id !== null && (options.enabled ?? true),
  });
}
