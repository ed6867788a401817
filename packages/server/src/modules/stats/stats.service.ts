import { categoryLabel } from '@billfold/contract/categories';
import { utcDate } from '@billfold/contract/dates';
import type { EntryFilters } from '@billfold/contract/entries';
import { fromCents, meanCents } from '@billfold/contract/money';
import type { Stats } from '@billfold/contract/stats';
import type { EntryGroup, MethodGroup, Side } from '../read-model/groups.ts';
import type { LedgerAt } from '../read-model/ledger-indexes.ts';
import type { ReadModelRepository } from '../read-model/read-model.repository.ts';
import { toScope } from '../read-model/scope.ts';

export const TOP_COUNT = 5;

/**
 * The `TOP_COUNT` largest positive sums as `{name: amount}`, largest first; equal sums in code-unit order
 * of the name, so the same data always gives the same map.
 */
export function topMap(totals: Map<string, number>): Record<string, number> {
  const sorted = [...totals]
    .filter(([, cents]) => cents > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(sorted.slice(0, TOP_COUNT).map(([name, cents]) => [name, fromCents(cents)]));
}

function add(totals: Map<string, number>, key: string, cents: number): void {
  totals.set(key, (totals.get(key) ?? 0) + cents);
}

/** Every figure of one side, in cents. */
function sideFigures(side: Side, entries: EntryGroup[], methods: MethodGroup[]) {
  const figures = { amount: 0, received: 0, overpaid: 0, outstanding: 0, paymentsTotal: 0, paymentCount: 0, max: 0 };
  const byEntity = new Map<string, number>();
  const byCategory = new Map<string, number>();
  const byMethod = new Map<string, number>();
  for (const row of entries) {
    if (row.side !== side) continue;
    figures.amount += row.amount;
    figures.received += row.received;
    figures.overpaid += row.overpaid;
    figures.outstanding += row.outstanding;
    add(byEntity, row.name, row.paid);
    add(byCategory, categoryLabel(row.category), row.paid);
  }
  for (const row of methods) {
    if (row.side !== side) continue;
    figures.paymentsTotal += row.total;
    figures.paymentCount += row.count;
    figures.max = Math.max(figures.max, row.max);
    add(byMethod, `${row.type}|${row.medium}`, row.total);
  }
  return { ...figures, avg: meanCents(figures.paymentsTotal, figures.paymentCount), byEntity, byCategory, byMethod };
}

export class StatsService {
  constructor(
    private readonly repo: ReadModelRepository,
    private readonly now: () => number,
  ) {}

  /** What answered the ledger's latest read: its index or SQL (docs/decisions/0405-ledger-index.md). */
  answeredBy(ledgerId: number) {
    return this.repo.indexes.answered(ledgerId);
  }

  async stats(ledger: LedgerAt, filters: EntryFilters): Promise<Stats> {
    const ledgerId = ledger.id;
    // Internal entries move money between one's own accounts: out of the figures unless asked for.
    const categories = await this.repo.categoryBook(ledgerId, filters.categoryList);
    const scope = toScope(ledgerId, filters, {
      internalOnlyWhenAsked: true,
      today: utcDate(this.now()),
      categories,
      version: ledger.version,
    });
    const { entries, methods } = await this.repo.stats(scope);
    const income = sideFigures('income', entries, methods);
    const expense = sideFigures('expense', entries, methods);
    return {
      totalIncomeAmount: fromCents(income.amount),
      totalReceivedPaymentAmount: fromCents(income.received),
      totalIncomeOverpaid: fromCents(income.overpaid),
      totalIncomeOutstanding: fromCents(income.outstanding),
      avgReceivedPaymentAmount: fromCents(income.avg),
      maxReceivedPaymentAmount: fromCents(income.max),
      totalExpenseAmount: fromCents(expense.amount),
      totalSentPaymentAmount: fromCents(expense.received),
      totalExpenseOverpaid: fromCents(expense.overpaid),
      totalExpenseUnpaid: fromCents(expense.outstanding),
      avgSentPaymentAmount: fromCents(expense.avg),
      maxSentPaymentAmount: fromCents(expense.max),
      topIncomeSources: topMap(income.byEntity),
      topIncomeTypes: topMap(income.byMethod),
      top5IncomeCategories: topMap(income.byCategory),
      topExpenseRecipients: topMap(expense.byEntity),
      topExpenseTypes: topMap(expense.byMethod),
      top5ExpenseCategories: topMap(expense.byCategory),
    };
  }
}
