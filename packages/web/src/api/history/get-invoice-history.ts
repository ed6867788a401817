import type { HistoryResponse } from '@billfold/contract/history';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `GET /entries/{id}/history`: every change of an invoice, oldest first: when, by whom, each field from and to. */
export function getInvoiceHistory(id: number): Promise<Outcome<HistoryResponse>> {
  return attempt<HistoryResponse>('GET', `/entries/${id}/history`);
}

/** A domain query: every write marks it stale, so the panel shows a change as soon as it is made. */
export function useInvoiceHistory(id: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['entries', 'history', id ?? 0],
    queryFn: async () => dataOf(await getInvoiceHistory(id ?? 0)).history,
    enabled: id !== null && (options.enabled ?? true),
  });
}
