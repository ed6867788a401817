import type { DueGroup, ScheduledGroup } from '@billfold/contract/due';
import { fromCents } from '@billfold/contract/money';
import { toEntry } from '../entries/entry.mapper.ts';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import type { DueRepository, DueTotals } from './due.repository.ts';
import { type ScheduledOccurrence, scheduledGroup } from './scheduled.ts';

/** A window of due dates: `[from, to]`, from the beginning when `from` is null. */
export interface DueWindow {
  from: string | null;
  to: string;
}

/** One window of due dates: its invoices' totals in dollars and its first `limit` invoices by due date. */
export async function dueGroup(
  repo: DueRepository,
  ledger: LedgerAt,
  totals: DueTotals | undefined,
  window: DueWindow,
  limit: number,
): Promise<Omit<DueGroup, 'scheduled'>> {
  return {
    count: totals?.count ?? 0,
    toPay: fromCents(totals?.toPayCents ?? 0),
    toCollect: fromCents(totals?.toCollectCents ?? 0),
    entries: (await repo.firstDue(ledger, window.from, window.to, limit)).map(toEntry),
  };
}

/** The scheduled invoices whose due date falls in the window. */
export function scheduledInWindow(
  scheduled: readonly ScheduledOccurrence[],
  window: DueWindow,
  limit: number,
): ScheduledGroup {
  return scheduledGroup(
    scheduled.filter((o) => (window.from === null || o.dueDate >= window.from) && o.dueDate <= window.to),
    limit,
  );
}
