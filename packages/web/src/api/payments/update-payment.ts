import type { Payment, UpdatePaymentBody } from '@billfold/contract/payments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `PUT /payments` → the updated payment; `recycle: true` deletes it, `recycle: false` restores it. */
export function updatePayment(body: UpdatePaymentBody): Promise<Outcome<Payment>> {
  return attempt<Payment>('PUT', '/payments', { body });
}

export function useUpdatePayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePayment,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateDomain(queryClient);
    },
  });
}
