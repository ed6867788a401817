import type { Entry } from '@billfold/contract/entries';
import { useQuery } from '@tanstack/react-query';
import { attempt, itemOf, type Outcome } from '../outcome.ts';

/** `GET /entries/{id}?filter=bypass`: the invoice also when it is in the recycle bin. */
export function getInvoiceEvenRecycled(entryId: number): Promise<Outcome<Entry>> {
  return attempt<Entry>('GET', `/entries/${entryId}`, { query: { filter: 'bypass' } });
}

/**
 * Whether a missing invoice is in the recycle bin (its page then links there); asked only once the page found no
 * live invoice (`entryId` null asks nothing).
 */
export function useInvoiceInBin(entryId: number | null) {
  return useQuery({
    queryKey: ['entries', 'in-bin', entryId ?? 0] as const,
    queryFn: async () => (itemOf(await getInvoiceEvenRecycled(entryId ?? 0))?.recycle ?? false) === true,
    enabled: entryId !== null,
  });
}
