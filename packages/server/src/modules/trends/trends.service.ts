import { addDays, utcDate } from '@billfold/contract/dates';
import { fromCents } from '@billfold/contract/money';
import {
  periodOf,
  type TrendInterval,
  type TrendPeriod,
  type Trends,
  type TrendsQuery,
} from '@billfold/contract/trends';
import type { MonthGroup } from '../read-model/groups.ts';
import { isoMonth } from '../read-model/ledger-index-columns.ts';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import type { ReadModelRepository } from '../read-model/read-model.repository.ts';
import { toScope } from '../read-model/scope.ts';

/** Months in a period of each interval. */
const MONTHS: Record<TrendInterval, number> = { month: 1, quarter: 3, year: 12 };

/** The first day of the period holding month `year × 12 + m` (`m` from 0), and the first day of the next one. */
function periodBounds(monthNumber: number, interval: TrendInterval): { start: string; next: string } {
  const span = MONTHS[interval];
  const first = monthNumber - (monthNumber % span);
  return { start: `${isoMonth(first)}-01`, next: `${isoMonth(first + span)}-01` };
}

const monthNumber = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

interface Sums {
  income: number;
  expenses: number;
}

const figures = ({ income, expenses }: Sums) => ({
  income: fromCents(income),
  expenses: fromCents(expenses),
  net: fromCents(income - expenses),
});

/**
 * Income and expenses per period and category (docs/decisions/0210-trends.md): the read model's amounts per
 * month, side and category, added up in cents into periods of the interval, every period from the first to the
 * last without gaps.
 */
export function toTrends(groups: MonthGroup[], interval: TrendInterval): Trends {
  if (groups.length === 0) return { interval, periods: [] };
  const byPeriod = new Map<string, { total: Sums; categories: Map<string, Sums> }>();
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const g of groups) {
    const m = monthNumber(g.month);
    first = Math.min(first, m);
    last = Math.max(last, m);
    const key = periodOf(`${g.month}-01`, interval);
    const period = byPeriod.get(key) ?? { total: { income: 0, expenses: 0 }, categories: new Map<string, Sums>() };
    byPeriod.set(key, period);
    const category = period.categories.get(g.category) ?? { income: 0, expenses: 0 };
    period.categories.set(g.category, category);
    const side = g.side === 'income' ? 'income' : 'expenses';
    period.total[side] += g.amount;
    category[side] += g.amount;
  }
  const periods: TrendPeriod[] = [];
  for (let m = first; m <= last; ) {
    const { start, next } = periodBounds(m, interval);
    const key = periodOf(start, interval);
    const period = byPeriod.get(key);
    periods.push({
      period: key,
      startDate: start,
      endDate: addDays(next, -1),
      ...figures(period?.total ?? { income: 0, expenses: 0 }),
      categories: [...(period?.categories ?? [])]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([category, sums]) => ({ category, ...figures(sums) })),
    });
    m = monthNumber(next.slice(0, 7));
  }
  return { interval, periods };
}

export class TrendsService {
  constructor(
    private readonly repo: ReadModelRepository,
    private readonly now: () => number,
  ) {}

  /** What answered the ledger's latest read: its index or SQL (docs/decisions/0405-ledger-index.md). */
  answeredBy(ledgerId: number) {
    return this.repo.indexes.answered(ledgerId);
  }

  async trends(ledger: LedgerAt, query: TrendsQuery): Promise<Trends> {
    const ledgerId = ledger.id;
    const { interval = 'month', ...filters } = query;
    // As the stats: internal entries move money between one's own accounts, out unless the flow filter asks.
    const categories = await this.repo.categoryBook(ledgerId, filters.categoryList);
    const scope = toScope(ledgerId, filters, {
      internalOnlyWhenAsked: true,
      today: utcDate(this.now()),
      categories,
      version: ledger.version,
    });
    return toTrends(await this.repo.monthGroups(scope), interval);
  }
}
