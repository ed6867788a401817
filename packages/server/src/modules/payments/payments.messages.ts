import { MESSAGES } from '../../lib/messages.ts';

/** The payment module's own messages; those it shares with other modules are in `lib/messages.ts`. */
export const PAYMENT_MESSAGES = {
  paymentNotFound: MESSAGES.paymentNotFound,
  paymentInvoiceRecycled: 'The invoice of this payment is in the recycle bin. Restore the invoice first.',
  paymentRecycled: 'This payment is in the recycle bin. Restore it first.',
  paymentMove: 'A payment stays with its invoice: entryId cannot be changed.',
} as const;
