import { addDays, utcDate } from '@billfold/contract/dates';
import { DUE_SOON_DAYS, DUE_SUMMARY_LIST, type DueGroup, type DueSummary } from '@billfold/contract/due';
import { fromCents } from '@billfold/contract/money';
import { toEntry } from '../entries/entry.mapper.ts';
import type { DueRepository, DueTotals } from './due.repository.ts';

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
    const group = async (totals: DueTotals | undefined, from: string | null, to: string): Promise<DueGroup> => ({
      count: totals?.count ?? 0,
      toPay: fromCents(totals?.toPayCents ?? 0),
      toCollect: fromCents(totals?.toCollectCents ?? 0),
      entries: (await this.repo.firstDue(userId, from, to, DUE_SUMMARY_LIST)).map(toEntry),
    });
    return {
      today,
      overdue: await group(overdue, null, addDays(today, -1)),
      next7: await group(next7, today, addDays(today, DUE_SOON_DAYS[0])),
      next30: await group(next30, today, addDays(today, DUE_SOON_DAYS[1])),
    };
  }
}
