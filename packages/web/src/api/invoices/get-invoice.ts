import type { Entry } from '@billfold/contract/entries';
import { useQuery } from '@tanstack/react-query';
import { attempt, itemOf, type Outcome } from '../outcome.ts';

export const invoiceQueryKey = (entryId: number) => ['entries', 'detail', entryId] as const;

/** `GET /entries/{id}`: the invoice (also of an archived entity). */
export function getInvoice(entryId: number): Promise<Outcome<Entry>> {
  return attempt<Entry>('GET', `/entries/${entryId}`);
}

/**
 * The invoice; `null` when there is no such invoice, the query's error when it could not be loaded. `entryId`
 * null (a route parameter that is not an id) gives a settled `null` without a request.
 */
export function useInvoice(entryId: number | null) {
  return useQuery({
    queryKey: invoiceQueryKey(entryId ?? 0),
    queryFn: async () => (entryId === null ? null : itemOf(await getInvoice(entryId))),
  });
}
