/** Payments against an invoice: `/payments`. */
import { z } from 'zod';
import { PAYMENT_METHOD_CODES } from './payment-methods.ts';
import { id, isoDate, looseBoolean, moneyIn, moneyOut, text } from './primitives.ts';

export const payment = z.object({
  paymentId: z.number().int(),
  id: z.number().int(),
  entryId: z.number().int(),
  date: z.string(),
  amount: moneyOut,
  type: z.string(),
  medium: z.string(),
  notes: z.string(),
  autopay: z.boolean(),
  recycle: z.boolean(),
});
export type Payment = z.infer<typeof payment>;
export type PaymentList = z.infer<typeof paymentListResponse>;

const methodPart = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.string().min(1).max(20));
const knownMethod = (p: { type?: string; medium?: string }) =>
  p.type === undefined || p.medium === undefined || PAYMENT_METHOD_CODES.includes(`${p.type}|${p.medium}` as never);
const methodMessage = {
  message: 'and medium must be one of the payment methods (type|medium, such as bank|ach)',
  path: ['type'],
};

export const paymentsQuery = z.object({ entryId: id });
export const paymentGetQuery = z.object({ filter: z.string().optional() });
export const createPaymentBody = z
  .object({
    entryId: id,
    date: isoDate,
    amount: moneyIn,
    type: methodPart,
    medium: methodPart,
    notes: text(1000).nullish(),
    autopay: looseBoolean.optional().default(false),
  })
  .refine(knownMethod, methodMessage);
export const updatePaymentBody = z
  .object({
    paymentId: id.optional(),
    id: id.optional(),
    entryId: id.optional(),
    date: isoDate.optional(),
    amount: moneyIn.optional(),
    type: methodPart.optional(),
    medium: methodPart.optional(),
    notes: text(1000).nullish(),
    autopay: looseBoolean.optional(),
    recycle: looseBoolean.optional(),
  })
  .refine((p) => p.paymentId !== undefined || p.id !== undefined, { message: 'is required', path: ['paymentId'] })
  .refine((p) => (p.type === undefined) === (p.medium === undefined), {
    message: 'must be sent together with type',
    path: ['medium'],
  })
  .refine(knownMethod, methodMessage);
export const paymentListResponse = z.object({ paymentDTOList: z.array(payment) });
export type CreatePaymentBody = z.input<typeof createPaymentBody>;
export type UpdatePaymentBody = z.input<typeof updatePaymentBody>;
/** A new payment as the server reads it. */
export type NewPayment = z.output<typeof createPaymentBody>;
/** A payment change as the server reads it. */
export type PaymentChange = z.output<typeof updatePaymentBody>;
