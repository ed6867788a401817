import type { HistoryResponse } from '@billfold/contract/history';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `GET /payments/{id}/history`: every change of a payment, oldest first: when, by whom, each field from and to. */
export function getPaymentHistory(id: number): Promise<Outcome<HistoryResponse>> {
  return attempt<HistoryResponse>('GET', `/payments/${id}/history`);
}

/** A domain query: every write marks it stale, so the panel shows a change as soon as it is made. */
export function usePaymentHistory(id: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['payments', 'history', id ?? 0],
    queryFn: async () => dataOf(await getPaymentHistory(id ?? 0)).history,
    enabled: id !== null && (options.enabled ?? true),
  });
}
