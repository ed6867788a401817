import type { Payment, UpdatePaymentBody } from '@billfold/contract/payments';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `PUT /payments` → the updated payment; `recycle: true` deletes it, `recycle: false` restores it. */
export function updatePayment(body: UpdatePaymentBody): Promise<Outcome<Payment>> {
  return attempt<Payment>('PUT', '/payments', { body });
}

export function useUpdatePayment() {
  return useDomainWrite(updatePayment);
}
