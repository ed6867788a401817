/** A cash-flow forecast: `/forecast` and the ledger's starting balance (docs/decisions/1014-forecast.md). */
import { z } from 'zod';
import { FLOWS } from './entries.ts';
import { MAX_CENTS, toCents } from './money.ts';
import { isoDate, moneyOut, optionalParam, wholeNumberParam } from './primitives.ts';
import { MESSAGES } from './validation.ts';

export const FORECAST_MONTHS = { min: 1, max: 24, default: 3 } as const;
/** Invoices and occurrences listed per day; the rest are counted in `more`. */
export const FORECAST_ITEMS_PER_DAY = 10;

export const forecastQuery = z.object({
  months: optionalParam(wholeNumberParam(FORECAST_MONTHS.min, FORECAST_MONTHS.max)),
  /** The client's own date; the server's UTC date when absent. */
  today: optionalParam(isoDate),
});

/** A balance may be below zero: a JSON number −999999999.99..999999999.99 with at most 2 decimals, as cents. */
const signedMoneyIn = z.number(MESSAGES.amountNotNumber).transform((value, ctx) => {
  const cents = toCents(Math.abs(value));
  if (cents === null || cents > MAX_CENTS) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.invalidBalance });
    return z.NEVER;
  }
  return value < 0 ? -cents : cents;
});

/** The ledger's starting balance, or null to have none (the forecast then starts at 0). */
export const forecastBalanceBody = z.object({ balance: signedMoneyIn.nullable() });
export type ForecastBalanceBody = z.input<typeof forecastBalanceBody>;
export const forecastBalance = z.object({ balance: moneyOut.nullable() });

export const forecastItem = z.object({
  /** An open invoice (by its due date), or an occurrence a schedule has still to create. */
  kind: z.enum(['invoice', 'occurrence']),
  entryId: z.number().int().nullable(),
  invoiceId: z.number().int().nullable(),
  scheduleId: z.number().int().nullable(),
  entityId: z.number().int(),
  name: z.string(),
  dueDate: z.string(),
  flow: z.enum(FLOWS),
  /** What is still to be paid or collected: an invoice's balance, an occurrence's amount. */
  amount: moneyOut,
  description: z.string(),
});

export const forecastDay = z.object({
  date: z.string(),
  income: moneyOut,
  expenses: moneyOut,
  /** The balance at the end of the day: the starting balance plus every day's income minus expenses so far. */
  balance: moneyOut,
  items: z.array(forecastItem),
  /** Invoices and occurrences of the day beyond those listed. */
  more: z.number().int(),
});

export const forecast = z.object({
  today: z.string(),
  endDate: z.string(),
  months: z.number().int(),
  startingBalance: moneyOut.nullable(),
  /** Every day from today to `endDate`; today also carries what is overdue. */
  days: z.array(forecastDay),
  /** The day with the lowest balance (the first of equals). */
  lowest: z.object({ date: z.string(), balance: moneyOut }),
  income: moneyOut,
  expenses: moneyOut,
});
export type Forecast = z.infer<typeof forecast>;
export type ForecastDay = z.infer<typeof forecastDay>;
export type ForecastItem = z.infer<typeof forecastItem>;

/** The last day of a forecast of `months` from `today`: the day before the same day `months` later (clamped). */
export function forecastEnd(today: string, months: number): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const target = m - 1 + months;
  const year = y + Math.floor(target / 12);
  const month = target % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = new Date(Date.UTC(year, month, Math.min(d, last)));
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}
