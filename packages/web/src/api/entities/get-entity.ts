import type { Bill } from '@billfold/contract/bills';
import { useQuery } from '@tanstack/react-query';
import { attempt, itemOf, type Outcome } from '../outcome.ts';

export const entityQueryKey = (billId: number) => ['bills', 'detail', billId] as const;

/** `GET /bills/{id}`: the entity (active or archived). */
export function getEntity(billId: number): Promise<Outcome<Bill>> {
  return attempt<Bill>('GET', `/bills/${billId}`);
}

/**
 * The entity; `null` when there is no such entity, the query's error when it could not be loaded. `billId` null
 * (a route parameter that is not an id) gives a settled `null` without a request.
 */
export function useEntity(billId: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: entityQueryKey(billId ?? 0),
    queryFn: async () => (billId === null ? null : itemOf(await getEntity(billId))),
    enabled: options.enabled ?? true,
  });
}
