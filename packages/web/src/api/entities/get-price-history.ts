import type { PriceHistory } from '@billfold/contract/price-history';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `GET /bills/{id}/price-history`: each live invoice of the entity over time with its changes. */
export function getPriceHistory(id: number): Promise<Outcome<PriceHistory>> {
  return attempt<PriceHistory>('GET', `/bills/${id}/price-history`);
}

/** A domain query: every write marks it stale, so a new or edited invoice shows at once. */
export function usePriceHistory(id: number) {
  return useQuery({
    queryKey: ['bills', 'price-history', id],
    queryFn: async () => dataOf(await getPriceHistory(id)),
  });
}
