import type { Bill } from '@billfold/contract/bills';
import { useQuery } from '@tanstack/react-query';
import { readOne } from '../outcome.ts';

export const entityQueryKey = (billId: number) => ['bills', 'detail', billId] as const;

/** `GET /bills/{id}`: the entity (active or archived); null when there is no such entity; throws when it could not be loaded. */
export function getEntity(billId: number): Promise<Bill | null> {
  return readOne<Bill>(`/bills/${billId}`);
}

/** `billId` null (a route parameter that is not an id) gives a settled `null` without a request. */
export function useEntity(billId: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: entityQueryKey(billId ?? 0),
    queryFn: () => (billId === null ? null : getEntity(billId)),
    enabled: options.enabled ?? true,
  });
}
