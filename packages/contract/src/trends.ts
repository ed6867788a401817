/** Income and expenses over time: `/entries/trends` (docs/decisions/0210-trends.md). */
import { z } from 'zod';
import { entryFilters } from './entries.ts';
import { moneyOut, optionalParam } from './primitives.ts';

export const TREND_INTERVALS = ['month', 'quarter', 'year'] as const;
export type TrendInterval = (typeof TREND_INTERVALS)[number];

/** Every filter of the invoice list, and the length of a period (a month when absent). */
export const trendsQuery = z.intersection(entryFilters, z.object({ interval: optionalParam(z.enum(TREND_INTERVALS)) }));
export type TrendsQuery = z.output<typeof trendsQuery>;

/** Income, expenses and their difference (income − expenses) of one period or one category in it. */
const figures = { income: moneyOut, expenses: moneyOut, net: moneyOut };

export const trendCategory = z.object({
  /** The category as the invoices carry it: built-in, or a name of the user's own. */
  category: z.string(),
  ...figures,
});

export const trendPeriod = z.object({
  /** `2026-03` for a month, `2026-Q1` for a quarter, `2026` for a year. */
  period: z.string(),
  /** The period's first and last day (`YYYY-MM-DD`). */
  startDate: z.string(),
  endDate: z.string(),
  ...figures,
  /** The categories with an invoice in the period, in code-unit order of the name. */
  categories: z.array(trendCategory),
});

export const trends = z.object({
  interval: z.enum(TREND_INTERVALS),
  /** From the first period with a matching invoice to the last, without gaps (a period without any is all zeros). */
  periods: z.array(trendPeriod),
});
export type Trends = z.infer<typeof trends>;
export type TrendPeriod = z.infer<typeof trendPeriod>;

/** The key of the period holding `isoDate` (`YYYY-MM-DD`). */
export function periodOf(isoDate: string, interval: TrendInterval): string {
  const year = isoDate.slice(0, 4);
  if (interval === 'year') return year;
  if (interval === 'month') return isoDate.slice(0, 7);
  return `${year}-Q${Math.floor((Number(isoDate.slice(5, 7)) - 1) / 3) + 1}`;
}
