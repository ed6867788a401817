import type { Bill } from '@billfold/contract/bills';
import { useQuery } from '@tanstack/react-query';
import { attempt, itemOf, type Outcome } from '../outcome.ts';

/** `GET /bills/{id}?bypass`: the entity also when it is in the recycle bin. */
export function getEntityEvenRecycled(billId: number): Promise<Outcome<Bill>> {
  return attempt<Bill>('GET', `/bills/${billId}`, { query: { bypass: 'true' } });
}

/**
 * Whether a missing entity is in the recycle bin (its page then links there); asked only once the page found no
 * live entity (`billId` null asks nothing).
 */
export function useEntityInBin(billId: number | null) {
  return useQuery({
    queryKey: ['bills', 'in-bin', billId ?? 0] as const,
    queryFn: async () => (itemOf(await getEntityEvenRecycled(billId ?? 0))?.recycle ?? false) === true,
    enabled: billId !== null,
  });
}
