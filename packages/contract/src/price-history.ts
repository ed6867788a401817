/** An entity's price history: `/bills/{id}/price-history` (docs/decisions/0211-price-history.md). */
import { z } from 'zod';
import { FLOWS } from './entries.ts';
import { moneyOut } from './primitives.ts';

/** The latest invoices listed; `count` says how many the entity has. */
export const PRICE_HISTORY_MAX_POINTS = 1000;
/** "A year before" is the earlier invoice dated closest to the same day a year back, at most this many days off. */
export const YEAR_BEFORE_TOLERANCE_DAYS = 31;

/** How an invoice's amount compares with an earlier invoice's. */
export const priceChange = z.object({
  entryId: z.number().int(),
  invoiceId: z.number().int(),
  date: z.string(),
  /** The earlier invoice's amount. */
  amount: moneyOut,
  /** This invoice's amount minus the earlier one's. */
  change: moneyOut,
  /** The change in percent of the earlier amount, to one decimal; null when that amount is 0. */
  percent: z.number().nullable(),
});
export type PriceChange = z.infer<typeof priceChange>;

export const pricePoint = z.object({
  entryId: z.number().int(),
  invoiceId: z.number().int(),
  date: z.string(),
  flow: z.enum(FLOWS),
  amount: moneyOut,
  /** Against the invoice before it (by date, then invoice number), or null for the first. */
  vsPrevious: priceChange.nullable(),
  /** Against the invoice closest to one year before, or null when there is none. */
  vsYearBefore: priceChange.nullable(),
});
export type PricePoint = z.infer<typeof pricePoint>;

export const priceHistory = z.object({
  entityId: z.number().int(),
  /** Every live invoice of the entity; `points` holds the latest `PRICE_HISTORY_MAX_POINTS`, oldest first. */
  count: z.number().int(),
  points: z.array(pricePoint),
});
export type PriceHistory = z.infer<typeof priceHistory>;

/** Percent change from `fromCents` to `toCents` to one decimal (halves away from zero), null from 0. */
export function percentChange(fromCents: number, toCents: number): number | null {
  if (fromCents === 0) return null;
  const tenths = ((toCents - fromCents) * 1000) / fromCents;
  return (Math.sign(tenths) * Math.round(Math.abs(tenths))) / 10;
}
