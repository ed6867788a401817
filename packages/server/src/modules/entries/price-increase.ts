import { formatUsd, fromCents } from '@billfold/contract/money';
import type { EntryRow } from '../../db/schema.ts';
import type { EntriesRepository } from './entries.repository.ts';

/**
 * Whether `cents` is up by more than `percent` of `previous`: exact, in integers (no rounding of the percent). A
 * previous amount of 0 is never compared with.
 */
export function isPriceIncrease(previousCents: number, cents: number, percent: number): boolean {
  return previousCents > 0 && cents * 100 > previousCents * (100 + percent);
}

/**
 * Records the `price_increase` event of an invoice whose actual amount is now known (created as it is, or an
 * estimate confirmed), in the caller's transaction (docs/decisions/0215-price-increase-event.md): when its entity has
 * a schedule and the amount is up by more than `percent` on the entity's previous confirmed invoice of the same
 * flow. Once per invoice (the event key).
 */
export async function recordPriceIncrease(
  repo: EntriesRepository,
  entry: EntryRow,
  percent: number,
  now: number,
): Promise<void> {
  if (entry.recycled_at !== null || entry.estimated === 1) return;
  const previous = await repo.previousActual(entry);
  const cents = Number(entry.amount_cents);
  const before = previous ? Number(previous.amount_cents) : 0;
  if (!previous || !isPriceIncrease(before, cents, percent) || !(await repo.hasSchedule(entry.bill_id))) return;
  const events = repo.notifications();
  await events.record(
    { ledgerId: entry.ledger_id },
    'price_increase',
    async () => {
      const ledger = await events.ledgerName(entry.ledger_id);
      const change = (((cents - before) / before) * 100).toFixed(1);
      return {
        key: `price_increase:${entry.id}`,
        title: `Price up ${change}%: ${entry.bill_name}`,
        body: `Invoice #${entry.invoice_number} of ${entry.bill_name} (${ledger}) is ${formatUsd(fromCents(cents))}, up from ${formatUsd(fromCents(before))} on ${previous.date} (+${change}%).`,
        data: {
          ledgerId: entry.ledger_id,
          ledgerName: ledger,
          entryId: entry.id,
          invoiceId: entry.invoice_number,
          name: entry.bill_name,
          amount: fromCents(cents),
          previousEntryId: Number(previous.id),
          previousInvoiceId: Number(previous.invoice_number),
          previousDate: previous.date,
          previousAmount: fromCents(before),
          percent: Number(change),
        },
      };
    },
    now,
  );
}
