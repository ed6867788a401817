import { categoryLabel } from '@billfold/contract/categories';
import { fromCents, meanCents } from '@billfold/contract/money';
import type { Stats } from '@billfold/contract/stats';

/** One invoice as the plain reference reads it; the caller has already chosen the invoices in scope. */
export interface StatsInvoice {
  /** Money in from others: an incoming invoice of an entity that is not internal. */
  income: boolean;
  amountCents: number;
  paidCents: number;
  balanceCents: number;
  entity: string;
  /** The category's stored key. */
  category: string;
  /** Its payments that count (not in the recycle bin), by the method key the stats group them by. */
  payments: readonly { amountCents: number; method: string }[];
}

function topFive(totals: Map<string, number>): Record<string, number> {
  const sorted = [...totals]
    .filter(([, v]) => v > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, 5);
  return Object.fromEntries(sorted.map(([k, v]) => [k, fromCents(v)]));
}

/**
 * The statistics of `invoices` summed one by one (docs/decisions/0202-stats-semantics.md): what every answer path
 * (ledger index, rollups, SQL) must equal, before and after any migration.
 */
export function referenceStats(invoices: readonly StatsInvoice[]): Stats {
  const side = (income: boolean) => {
    const rows = invoices.filter((e) => e.income === income);
    const payments = rows.flatMap((e) => e.payments);
    const sum = (f: (e: StatsInvoice) => number) => rows.reduce((n, e) => n + f(e), 0);
    const total = payments.reduce((n, p) => n + p.amountCents, 0);
    const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    const byEntity = new Map<string, number>();
    const byCategory = new Map<string, number>();
    const byMethod = new Map<string, number>();
    for (const e of rows) add(byEntity, e.entity, e.paidCents);
    for (const e of rows) add(byCategory, categoryLabel(e.category), e.paidCents);
    for (const p of payments) add(byMethod, p.method, p.amountCents);
    return {
      amount: fromCents(sum((e) => e.amountCents)),
      received: fromCents(sum((e) => Math.min(e.paidCents, e.amountCents))),
      overpaid: fromCents(sum((e) => Math.max(e.paidCents - e.amountCents, 0))),
      outstanding: fromCents(sum((e) => e.balanceCents)),
      avg: fromCents(meanCents(total, payments.length)),
      max: fromCents(Math.max(0, ...payments.map((p) => p.amountCents))),
      byEntity: topFive(byEntity),
      byCategory: topFive(byCategory),
      byMethod: topFive(byMethod),
    };
  };
  const income = side(true);
  const expense = side(false);
  return {
    totalIncomeAmount: income.amount,
    totalReceivedPaymentAmount: income.received,
    totalIncomeOverpaid: income.overpaid,
    totalIncomeOutstanding: income.outstanding,
    avgReceivedPaymentAmount: income.avg,
    maxReceivedPaymentAmount: income.max,
    totalExpenseAmount: expense.amount,
    totalSentPaymentAmount: expense.received,
    totalExpenseOverpaid: expense.overpaid,
    totalExpenseUnpaid: expense.outstanding,
    avgSentPaymentAmount: expense.avg,
    maxSentPaymentAmount: expense.max,
    topIncomeSources: income.byEntity,
    topIncomeTypes: income.byMethod,
    top5IncomeCategories: income.byCategory,
    topExpenseRecipients: expense.byEntity,
    topExpenseTypes: expense.byMethod,
    top5ExpenseCategories: expense.byCategory,
  };
}
