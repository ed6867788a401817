import type { DueGroup } from '@billfold/contract/due';
import { fromCents } from '@billfold/contract/money';
import { toEntry } from '../entries/entry.mapper.ts';
import type { DueRepository, DueTotals } from './due.repository.ts';

/** One window of due dates: its totals in dollars and its first `limit` invoices by due date. */
export async function dueGroup(
  repo: DueRepository,
  userId: number,
  totals: DueTotals | undefined,
  window: { from: string | null; to: string },
  limit: number,
): Promise<DueGroup> {
  return {
    count: totals?.count ?? 0,
    toPay: fromCents(totals?.toPayCents ?? 0),
    toCollect: fromCents(totals?.toCollectCents ?? 0),
    entries: (await repo.firstDue(userId, window.from, window.to, limit)).map(toEntry),
  };
}
