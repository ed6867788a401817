import type { CreatePaymentBody, Payment } from '@billfold/contract/payments';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /payments` → the created payment. */
export function createPayment(body: CreatePaymentBody): Promise<Outcome<Payment>> {
  return attempt<Payment>('POST', '/payments', { body });
}

/** Invalidates the invoice too: its status and balance follow its payments. */
export function useCreatePayment() {
  return useDomainWrite(createPayment);
}
