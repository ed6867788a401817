import type { Bill } from '@billfold/contract/bills';
import { useQuery } from '@tanstack/react-query';
import { readOne } from '../outcome.ts';

export const billQueryKey = (billId: number) => ['bills', 'detail', billId] as const;

/** `GET /bills/{id}`: the entity (active or archived); null when there is no such entity; throws when it could not be loaded. */
export function getBill(billId: number): Promise<Bill | null> {
  return readOne<Bill>(`/bills/${billId}`);
}

/** `billId` null (a route parameter that is not an id) gives a settled `null` without a request. */
export function useBill(billId: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: billQueryKey(billId ?? 0),
    queryFn: () => (billId === null ? null : getBill(billId)),
    enabled: options.enabled ?? true,
  });
}
