import { addDays, daysBetween } from '@billfold/contract/dates';
import type { Flow } from '@billfold/contract/entries';
import { fromCents } from '@billfold/contract/money';
import {
  PRICE_HISTORY_MAX_POINTS,
  type PriceChange,
  type PriceHistory,
  percentChange,
  YEAR_BEFORE_TOLERANCE_DAYS,
} from '@billfold/contract/price-history';
import { notFound } from '../../lib/http-error.ts';
import { MESSAGES } from '../../lib/messages.ts';
import type { PriceHistoryRepository, PriceRow } from './price-history.repository.ts';

/** The same day one year earlier; 29 February goes to 28 February. */
export function yearBefore(date: string): string {
  const year = String(Number(date.slice(0, 4)) - 1).padStart(4, '0');
  const monthDay = date.slice(5) === '02-29' ? '02-28' : date.slice(5);
  return `${year}-${monthDay}`;
}

/** Index of the first row dated on or after `date` (rows sorted by date). */
function firstOnOrAfter(rows: readonly PriceRow[], date: string): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((rows[mid] as PriceRow).date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The earlier row dated closest to a year before `rows[i]`, within the tolerance; the older of equally close ones. */
function yearBeforeRow(rows: readonly PriceRow[], i: number): PriceRow | null {
  const target = yearBefore((rows[i] as PriceRow).date);
  let best: PriceRow | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let j = firstOnOrAfter(rows, addDays(target, -YEAR_BEFORE_TOLERANCE_DAYS)); j < i; j++) {
    const row = rows[j] as PriceRow;
    const distance = Math.abs(daysBetween(target, row.date));
    if (distance > YEAR_BEFORE_TOLERANCE_DAYS) break;
    if (distance < bestDistance) {
      best = row;
      bestDistance = distance;
    }
  }
  return best;
}

function compare(earlier: PriceRow | null, amountCents: number): PriceChange | null {
  if (earlier === null) return null;
  const before = Number(earlier.amount_cents);
  return {
    entryId: Number(earlier.id),
    invoiceId: Number(earlier.invoice_number),
    date: earlier.date,
    amount: fromCents(before),
    change: fromCents(amountCents - before),
    percent: percentChange(before, amountCents),
  };
}

export class PriceHistoryService {
  constructor(private readonly repo: PriceHistoryRepository) {}

  /** Each live invoice of a live entity of the ledger, with its change vs the previous one and vs a year before. */
  async history(ledgerId: number, entityId: number): Promise<PriceHistory> {
    const entity = await this.repo.entity(ledgerId, entityId);
    if (!entity || entity.recycled_at !== null) throw notFound(MESSAGES.entityNotFound);
    const rows = await this.repo.invoices(ledgerId, entityId);
    const first = Math.max(0, rows.length - PRICE_HISTORY_MAX_POINTS);
    const points = rows.slice(first).map((row, k) => {
      const i = first + k;
      const amountCents = Number(row.amount_cents);
      return {
        entryId: Number(row.id),
        invoiceId: Number(row.invoice_number),
        date: row.date,
        flow: row.flow as Flow,
        amount: fromCents(amountCents),
        vsPrevious: compare(i > 0 ? (rows[i - 1] as PriceRow) : null, amountCents),
        vsYearBefore: compare(yearBeforeRow(rows, i), amountCents),
      };
    });
    return { entityId, count: rows.length, points };
  }
}
