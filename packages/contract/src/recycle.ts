/** The recycle bin: `/recycle`. */
import { z } from 'zod';
import { id, moneyOut, timestamp } from './primitives.ts';

export const RECYCLE_TYPES = ['Entity', 'Invoice', 'Payment'] as const;
export type RecycleType = (typeof RECYCLE_TYPES)[number];
export const recycleItem = z.object({
  entityType: z.enum(RECYCLE_TYPES),
  entityId: z.number().int(),
  recycleDate: timestamp,
  partyName: z.string().nullable(),
  invoiceNumber: z.number().int().nullable(),
  entityDate: z.string().nullable(),
  amount: moneyOut.nullable(),
  type: z.string().nullable(),
  details: z.string().nullable(),
  /**
   * When the bin's purge removes the item for good: `recycleDate` + 14 days (an addition to the spec's item; the
   * hourly purge job removes it within the hour after).
   */
  purgeDate: timestamp,
});
export const recycleListResponse = z.object({ recycleItems: z.array(recycleItem) });
export const restoreBody = z.object({ entityType: z.enum(RECYCLE_TYPES), entityId: id });
/** `DELETE /recycle/{entityType}/{entityId}`: removes an item of the bin for good, before its purge date. */
export const deleteForeverParams = z.object({ entityType: z.enum(RECYCLE_TYPES), entityId: id });
export type RecycleItem = z.infer<typeof recycleItem>;
export type RecycleList = z.infer<typeof recycleListResponse>;
/** A restore request as the server reads it. */
export type RestoreTarget = z.output<typeof restoreBody>;
