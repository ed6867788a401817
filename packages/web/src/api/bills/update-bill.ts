import type { Bill, UpdateBillBody } from '@billfold/contract/bills';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';
import { billQueryKey } from './get-bill.ts';

/** `PUT /bills`: rename, recategorise, archive (`status: 0`), unarchive (`status: 1`), delete (`recycle: true`). */
export function updateBill(body: UpdateBillBody): Promise<Outcome<Bill>> {
  return attempt<Bill>('PUT', '/bills', { body });
}

export function useUpdateBill() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBill,
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      if (!outcome.data.recycle) queryClient.setQueryData(billQueryKey(outcome.data.id), outcome.data);
      void invalidateDomain(queryClient);
    },
  });
}
