import type { Bill, UpdateBillBody } from '@billfold/contract/bills';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';
import { entityQueryKey } from './get-entity.ts';

/** `PUT /bills`: rename, recategorise, archive (`status: 0`), unarchive (`status: 1`), delete (`recycle: true`). */
export function updateEntity(body: UpdateBillBody): Promise<Outcome<Bill>> {
  return attempt<Bill>('PUT', '/bills', { body });
}

export function useUpdateEntity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEntity,
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      if (!outcome.data.recycle) queryClient.setQueryData(entityQueryKey(outcome.data.id), outcome.data);
      void invalidateDomain(queryClient);
    },
  });
}
