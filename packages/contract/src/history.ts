/**
 * Who changed what: `GET /entries/{id}/history`, `/bills/{id}/history`, `/payments/{id}/history`
 * (docs/decisions/0108-change-history.md). Each write of an item records one change, in the write's own
 * transaction: when, by whom, what kind, and each field from and to.
 */
import { z } from 'zod';
import { timestamp } from './primitives.ts';

export const HISTORY_ACTIONS = ['create', 'update', 'recycle', 'restore', 'import', 'schedule', 'autopay'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** A field's value before and after, as the API shows it (money as decimal numbers, dates as ISO dates). */
const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const fieldChange = z.object({ field: z.string(), from: fieldValue, to: fieldValue });
export type FieldChange = z.infer<typeof fieldChange>;

export const historyEntry = z.object({
  id: z.number().int(),
  at: timestamp,
  /** Who made the change; null for the server's own work (a schedule's invoice, an automatic payment). */
  by: z.object({ userId: z.number().int(), username: z.string() }).nullable(),
  action: z.enum(HISTORY_ACTIONS),
  /** Each field that changed; on `create`, each field's first value (`from` null). */
  fields: z.array(fieldChange),
});
export type HistoryEntry = z.infer<typeof historyEntry>;
/** Oldest first. */
export const historyResponse = z.object({ history: z.array(historyEntry) });
export type HistoryResponse = z.infer<typeof historyResponse>;
