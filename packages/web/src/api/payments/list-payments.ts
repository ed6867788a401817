import type { PaymentList } from '@billfold/contract/payments';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const paymentsQueryKey = (entryId: number) => ['payments', 'list', entryId] as const;

/** `GET /payments?entryId=`: the invoice's payments, newest first. */
export function listPayments(entryId: number): Promise<Outcome<PaymentList>> {
  return attempt<PaymentList>('GET', '/payments', { query: { entryId } });
}

/** A failed load is the query's error: the invoice page says `Failed to load invoice or payments.`, not `No payments found.` */
export function usePayments(entryId: number | null) {
  return useQuery({
    queryKey: paymentsQueryKey(entryId ?? 0),
    queryFn: async () => dataOf(await listPayments(entryId ?? 0)).paymentDTOList,
    enabled: entryId !== null,
  });
}
