import type { Payment } from '@billfold/contract/payments';
import { useQuery } from '@tanstack/react-query';
import { readList } from '../outcome.ts';

export const paymentsQueryKey = (entryId: number) => ['payments', 'list', entryId] as const;

/**
 * `GET /payments?entryId=`: the invoice's payments, newest first. A failure throws rather than giving an empty
 * list: the invoice page must say `Failed to load invoice or payments.`, not `No payments found.`
 */
export function listPayments(entryId: number): Promise<Payment[]> {
  return readList<Payment>(
    '/payments',
    (body) =>
      Array.isArray(body) ? (body as Payment[]) : (body as { paymentDTOList?: Payment[] } | null)?.paymentDTOList,
    { entryId },
  );
}

export function usePayments(entryId: number | null) {
  return useQuery({
    queryKey: paymentsQueryKey(entryId ?? 0),
    queryFn: () => listPayments(entryId ?? 0),
    enabled: entryId !== null,
  });
}
