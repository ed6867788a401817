import type { Stats } from '@billfold/contract/stats';
import { describe, expect, it } from 'vitest';
import { toEntryQuery } from '../src/api/invoices/list-invoices.ts';
import { flowKind, paidState } from '../src/components/invoice-grid/icons.tsx';
import { chartData } from '../src/components/stats/IncomeExpenseChart.tsx';
import { expenseFigures, incomeFigures, insightLists, topItems } from '../src/components/stats/stats-view.ts';

const entry = (amount: number, balance: number, status: boolean, overpaid = false) => ({
  amount,
  status,
  overpaid,
  balance: { totalBalance: balance, totalOverpaid: 0 },
});

describe('paid and flow icons (docs/product.md, Home (/home))', () => {
  it('paid, overpaid, in progress when the balance is partial, otherwise unpaid', () => {
    expect(paidState(entry(100, 0, true))).toBe('paid');
    expect(paidState(entry(100, 0, true, true))).toBe('overpaid');
    expect(paidState(entry(100, 40, false))).toBe('inProgress');
    expect(paidState(entry(100, 100, false))).toBe('unpaid');
    expect(paidState(entry(0, 0, false))).toBe('unpaid');
  });

  it('internal entities are internal whatever the stored flow', () => {
    expect(flowKind({ flow: 'INCOMING', internal: false })).toBe('income');
    expect(flowKind({ flow: 'OUTGOING', internal: false })).toBe('expense');
    expect(flowKind({ flow: 'OUTGOING', internal: true })).toBe('internal');
  });
});

const STATS: Stats = {
  totalIncomeAmount: 1500,
  totalReceivedPaymentAmount: 1500,
  totalIncomeOverpaid: 50,
  totalIncomeOutstanding: 0,
  avgReceivedPaymentAmount: 775,
  maxReceivedPaymentAmount: 1000,
  totalExpenseAmount: 1234567.8,
  totalSentPaymentAmount: 95.25,
  totalExpenseOverpaid: 0,
  totalExpenseUnpaid: 150.5,
  avgSentPaymentAmount: 47.63,
  maxSentPaymentAmount: 50,
  topIncomeSources: { 'Acme Corp': 1550 },
  topIncomeTypes: { 'check|mail': 550, 'bank|ach': 1000 },
  top5IncomeCategories: { FINANCIAL: 1550 },
  topExpenseRecipients: {},
  topExpenseTypes: { 'crypto|phone': 5 },
  top5ExpenseCategories: { home_services: 3 },
};

describe('stats cards (docs/product.md, Stats)', () => {
  it('shows USD figures with the overpaid amount in brackets', () => {
    expect(incomeFigures(STATS)).toEqual([
      { label: 'Total Income', value: '$1,500.00' },
      { label: 'Received', value: '$1,500.00 ($50.00 overpaid)' },
      { label: 'Outstanding', value: '$0.00' },
      { label: 'Avg Payment Received', value: '$775.00' },
      { label: 'Max Payment Received', value: '$1,000.00' },
    ]);
    expect(expenseFigures(STATS).map((f) => f.label)).toEqual([
      'Total Expenses',
      'Paid',
      'Balance',
      'Avg Payment Made',
      'Max Payment Made',
    ]);
    expect(expenseFigures(STATS)[0]?.value).toBe('$1,234,567.80');
  });

  it('lists at most 5, largest first, even when JSON reorders integer-like names', () => {
    const map = { '2024': 1, b: 9, a: 9, c: 3, d: 2, e: 8, f: 7 };
    expect(topItems(map).map((i) => i.label)).toEqual(['a', 'b', 'e', 'f', 'c']);
  });

  it('labels payment methods and title-cases categories; empty lists stay empty', () => {
    const lists = insightLists(STATS);
    expect(lists.map((l) => l.title)).toEqual([
      'Top Income Sources',
      'Income by Type',
      'Income Categories',
      'Top Expense Recipients',
      'Expenses by Type',
      'Expense Categories',
    ]);
    expect(lists[1]?.items).toEqual([
      { label: 'Bank Transfer (ACH/EFT)', value: '$1,000.00' },
      { label: 'Check (Mail)', value: '$550.00' },
    ]);
    expect(lists[2]?.items[0]?.label).toBe('Financial');
    expect(lists[3]?.items).toEqual([]);
    expect(lists[4]?.items[0]?.label).toBe('Other - Phone');
    expect(lists[5]?.items[0]?.label).toBe('Home Services');
  });

  it('charts income next to expenses for each measure', () => {
    expect(chartData(STATS)).toEqual({
      measures: ['Total', 'Paid', 'Outstanding', 'Overpaid'],
      income: [1500, 1500, 0, 50],
      expenses: [1234567.8, 95.25, 150.5, 0],
    });
  });
});

describe('list query', () => {
  it('leaves out empty values, repeats arrays, and keeps one key order', () => {
    expect(
      toEntryQuery({ pageSize: 10, pageNum: 0, partyList: [], categoryList: ['A', 'B'], invoiceNum: '', min: 5 }),
    ).toEqual({ categoryList: ['A', 'B'], min: 5, pageNum: 0, pageSize: 10 });
    expect(Object.keys(toEntryQuery({ sortOrder: 'asc', startDate: '2026-01-01', pageNum: 1, pageSize: 5 }))).toEqual([
      'startDate',
      'pageNum',
      'pageSize',
      'sortOrder',
    ]);
  });
});
