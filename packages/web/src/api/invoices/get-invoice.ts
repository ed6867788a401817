import type { Entry } from '@billfold/contract/entries';
import { useQuery } from '@tanstack/react-query';
import { readOne } from '../outcome.ts';

export const invoiceQueryKey = (entryId: number) => ['entries', 'detail', entryId] as const;

/** `GET /entries/{id}`: the invoice (also of an archived entity); null when there is no such invoice; throws when it could not be loaded. */
export function getInvoice(entryId: number): Promise<Entry | null> {
  return readOne<Entry>(`/entries/${entryId}`);
}

/** `entryId` null (a route parameter that is not an id) gives a settled `null` without a request. */
export function useInvoice(entryId: number | null) {
  return useQuery({
    queryKey: invoiceQueryKey(entryId ?? 0),
    queryFn: () => (entryId === null ? null : getInvoice(entryId)),
  });
}
