import type { Bill, CreateBillBody } from '@billfold/contract/bills';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /bills` → the created entity (409 when the name is taken). */
export function createEntity(body: CreateBillBody): Promise<Outcome<Bill>> {
  return attempt<Bill>('POST', '/bills', { body: { status: 1, ...body } });
}

export function useCreateEntity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEntity,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateDomain(queryClient);
    },
  });
}
