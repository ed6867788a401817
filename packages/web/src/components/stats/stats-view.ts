import { categoryLabel } from '@billfold/contract/categories';
import { formatUsd } from '@billfold/contract/money';
import { paymentMethodLabel } from '@billfold/contract/payment-methods';
import type { Stats } from '@billfold/contract/stats';

export interface Figure {
  label: string;
  value: string;
}

/** `$1,000.00 ($50.00 overpaid)`: a paid total with the overpaid part in brackets (docs/product.md, Stats). */
export function withOverpaid(paid: number, overpaid: number): string {
  return `${formatUsd(paid)} (${formatUsd(overpaid)} overpaid)`;
}

/** Income Breakdown (docs/product.md, Stats): Total Income, Received (overpaid in brackets), Outstanding, Avg and Max Payment Received. */
export function incomeFigures(stats: Stats): Figure[] {
  return [
    { label: 'Total Income', value: formatUsd(stats.totalIncomeAmount) },
    { label: 'Received', value: withOverpaid(stats.totalReceivedPaymentAmount, stats.totalIncomeOverpaid) },
    { label: 'Outstanding', value: formatUsd(stats.totalIncomeOutstanding) },
    { label: 'Avg Payment Received', value: formatUsd(stats.avgReceivedPaymentAmount) },
    { label: 'Max Payment Received', value: formatUsd(stats.maxReceivedPaymentAmount) },
  ];
}

/** Expenses Breakdown (docs/product.md, Stats): Total Expenses, Paid (overpaid in brackets), Balance, Avg and Max Payment Made. */
export function expenseFigures(stats: Stats): Figure[] {
  return [
    { label: 'Total Expenses', value: formatUsd(stats.totalExpenseAmount) },
    { label: 'Paid', value: withOverpaid(stats.totalSentPaymentAmount, stats.totalExpenseOverpaid) },
    { label: 'Balance', value: formatUsd(stats.totalExpenseUnpaid) },
    { label: 'Avg Payment Made', value: formatUsd(stats.avgSentPaymentAmount) },
    { label: 'Max Payment Made', value: formatUsd(stats.maxSentPaymentAmount) },
  ];
}

/** Whether any figure of one side's card is not zero. */
const anyNonZero = (values: number[]) => values.some((value) => value !== 0);

/**
 * The breakdown cards worth showing: a card whose every figure is zero (an expense-only entity's Income Breakdown,
 * Home filtered to one flow) is left out while the other card has something; with nothing on either side both show.
 */
export function breakdownCards(stats: Stats): { income: boolean; expense: boolean } {
  const income = anyNonZero([
    stats.totalIncomeAmount,
    stats.totalReceivedPaymentAmount,
    stats.totalIncomeOverpaid,
    stats.totalIncomeOutstanding,
    stats.avgReceivedPaymentAmount,
    stats.maxReceivedPaymentAmount,
  ]);
  const expense = anyNonZero([
    stats.totalExpenseAmount,
    stats.totalSentPaymentAmount,
    stats.totalExpenseOverpaid,
    stats.totalExpenseUnpaid,
    stats.avgSentPaymentAmount,
    stats.maxSentPaymentAmount,
  ]);
  if (!income && !expense) return { income: true, expense: true };
  return { income, expense };
}

export interface InsightList {
  title: string;
  items: Figure[];
}

export const TOP_LIST_SIZE = 5;

/**
 * A top map as at most 5 rows, largest first (ties by name). JSON objects put integer-like keys first whatever the
 * server's order, so the order is restored here.
 */
export function topItems(map: Record<string, number>, label: (key: string) => string = (key) => key): Figure[] {
  return Object.entries(map)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, TOP_LIST_SIZE)
    .map(([key, amount]) => ({ label: label(key), value: formatUsd(amount) }));
}

/** Top Payment Insights (docs/product.md, Stats): six top-5 lists; payment methods by label, categories in title case. */
export function insightLists(stats: Stats): InsightList[] {
  return [
    { title: 'Top Income Sources', items: topItems(stats.topIncomeSources) },
    { title: 'Income by Type', items: topItems(stats.topIncomeTypes, paymentMethodLabel) },
    { title: 'Income Categories', items: topItems(stats.top5IncomeCategories, categoryLabel) },
    { title: 'Top Expense Recipients', items: topItems(stats.topExpenseRecipients) },
    { title: 'Expenses by Type', items: topItems(stats.topExpenseTypes, paymentMethodLabel) },
    { title: 'Expense Categories', items: topItems(stats.top5ExpenseCategories, categoryLabel) },
  ];
}
