/** Entities (billers and payees; `bill` on the wire): `/bills`. */
import { z } from 'zod';
import { id, looseBoolean, nameText, oneOrMany, text } from './primitives.ts';
import { MESSAGES } from './validation.ts';

export const category = z.string().max(100);
export const billStatus = z.preprocess(
  (v) => {
    if (v === true || v === 'true' || v === '1') return 1;
    if (v === false || v === 'false' || v === '0') return 0;
    return v;
  },
  z.union([z.literal(0), z.literal(1)]),
);

export const bill = z.object({
  id: z.number().int(),
  name: z.string(),
  /** One of the 21 built-in categories or a name of the user's own (docs/decisions/0105-categories-of-your-own.md). */
  category: z.string(),
  internal: z.boolean(),
  status: z.union([z.literal(0), z.literal(1)]),
  recycle: z.boolean(),
});

export const billsQuery = z.object({
  status: z.enum(['active', 'inactive', 'all']).optional(),
  name: text(100).optional(),
  category: oneOrMany(category),
});
export const billGetQuery = z.object({ bypass: z.string().optional() });
export const createBillBody = z.object({
  name: nameText(100).pipe(z.string().min(1, MESSAGES.entityNameEmpty)),
  status: billStatus.optional(),
  category: category.nullish(),
  internal: looseBoolean.optional(),
});
export const updateBillBody = z.object({
  id,
  name: nameText(100).pipe(z.string().min(1, MESSAGES.entityNameEmpty)).optional(),
  status: billStatus.optional(),
  category: category.nullish(),
  internal: looseBoolean.optional(),
  recycle: looseBoolean.optional(),
});
export const billListResponse = z.object({ billDTOList: z.array(bill) });
export type Bill = z.infer<typeof bill>;
export type BillList = z.infer<typeof billListResponse>;
export type CreateBillBody = z.input<typeof createBillBody>;
export type UpdateBillBody = z.input<typeof updateBillBody>;
/** The entity list's filters as the server reads them. */
export type BillQuery = z.output<typeof billsQuery>;
/** A new entity as the server reads it. */
export type NewBill = z.output<typeof createBillBody>;
/** An entity change as the server reads it. */
export type BillChange = z.output<typeof updateBillBody>;
