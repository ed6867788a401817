import { addDays, utcDate } from '@billfold/contract/dates';
import { DUE_SOON_DAYS, DUE_SUMMARY_LIST, type DueSummary } from '@billfold/contract/due';
import type { DueRepository, DueTotals } from './due.repository.ts';
import { dueGroup } from './due-group.ts';

/** What is overdue and due soon (docs/decisions/1001-upcoming-and-overdue.md). */
export class DueService {
  constructor(
    private readonly repo: DueRepository,
    private readonly now: () => number,
  ) {}

  /** `today` is the client's date when it sends one, else the server's UTC date. */
  async summary(userId: number, clientToday: string | undefined): Promise<DueSummary> {
    const today = clientToday ?? utcDate(this.now());
    const [overdue, next7, next30] = await this.repo.totals(userId, today, DUE_SOON_DAYS);
    const group = (totals: DueTotals | undefined, from: string | null, to: string) =>
      dueGroup(this.repo, userId, totals, { from, to }, DUE_SUMMARY_LIST);
    // Side by side: on PostgreSQL the three reads overlap instead of waiting for each other.
    const [overdueGroup, next7Group, next30Group] = await Promise.all([
      group(overdue, null, addDays(today, -1)),
      group(next7, today, addDays(today, DUE_SOON_DAYS[0])),
      group(next30, today, addDays(today, DUE_SOON_DAYS[1])),
    ]);
    return { today, overdue: overdueGroup, next7: next7Group, next30: next30Group };
  }
}
