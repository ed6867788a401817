import { addDays, utcDate } from '@billfold/contract/dates';
import { DUE_SOON_DAYS, DUE_SUMMARY_LIST, type DueSummary } from '@billfold/contract/due';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import type { DueRepository, DueTotals } from './due.repository.ts';
import { type DueWindow, dueGroup, scheduledInWindow } from './due-group.ts';

type GroupName = 'overdue' | 'next7' | 'next30' | 'later';

/** The part of `outer` after `inner` (windows that start the same day): exact, in cents. */
const minus = (outer: DueTotals | undefined, inner: DueTotals | undefined): DueTotals => ({
  count: (outer?.count ?? 0) - (inner?.count ?? 0),
  toPayCents: (outer?.toPayCents ?? 0) - (inner?.toPayCents ?? 0),
  toCollectCents: (outer?.toCollectCents ?? 0) - (inner?.toCollectCents ?? 0),
});

/**
 * What is overdue and due soon (docs/decisions/1001-upcoming-and-overdue.md), with what schedules will create
 * (docs/decisions/1012-scheduled-occurrences-in-upcoming.md).
 */
export class DueService {
  constructor(
    private readonly repo: DueRepository,
    private readonly now: () => number,
  ) {}

  /** `today` is the client's date when it sends one, else the server's UTC date. */
  async summary(ledger: LedgerAt, clientToday: string | undefined): Promise<DueSummary> {
    const today = clientToday ?? utcDate(this.now());
    const [near, far] = DUE_SOON_DAYS;
    const windows: Record<GroupName, DueWindow> = {
      overdue: { from: null, to: addDays(today, -1) },
      next7: { from: today, to: addDays(today, near) },
      next30: { from: today, to: addDays(today, far) },
      later: { from: addDays(today, near + 1), to: addDays(today, far) },
    };
    const [overdue, next7, next30] = await this.repo.totals(ledger, today, DUE_SOON_DAYS);
    const totals = { overdue, next7, next30, later: minus(next30, next7) };
    const group = (name: GroupName) => dueGroup(this.repo, ledger, totals[name], windows[name], DUE_SUMMARY_LIST);
    // Side by side: on PostgreSQL the reads overlap instead of waiting for each other.
    const [overdueGroup, next7Group, next30Group, laterGroup] = await Promise.all([
      group('overdue'),
      group('next7'),
      group('next30'),
      group('later'),
    ]);
    // The schedules are read after the invoices: an occurrence that becomes an invoice in between is then missing
    // from this one answer rather than counted twice.
    const scheduled = await this.repo.scheduled(ledger, null, windows.next30.to);
    const withScheduled = (found: Awaited<ReturnType<typeof group>>, name: GroupName) => ({
      ...found,
      scheduled: scheduledInWindow(scheduled, windows[name], DUE_SUMMARY_LIST),
    });
    return {
      today,
      overdue: withScheduled(overdueGroup, 'overdue'),
      next7: withScheduled(next7Group, 'next7'),
      next30: withScheduled(next30Group, 'next30'),
      later: withScheduled(laterGroup, 'later'),
    };
  }
}
