import type { Trends } from '@billfold/contract/trends';
import { describe, expect, it } from 'vitest';
import {
  percentChange,
  periodLabel,
  STACKED_CATEGORIES,
  stackedSeries,
  yearOverYear,
} from '../src/components/stats/trends-view.ts';

const period = (key: string, categories: [string, number][]) => {
  const expenses = categories.reduce((n, [, v]) => Math.round((n + v) * 100) / 100, 0);
  return {
    period: key,
    startDate: `${key}-01`,
    endDate: `${key}-28`,
    income: 0,
    expenses,
    net: -expenses,
    categories: categories.map(([category, v]) => ({ category, income: 0, expenses: v, net: -v })),
  };
};

describe('trends view', () => {
  it('names periods as people read them', () => {
    expect([periodLabel('2026-03'), periodLabel('2026-Q1'), periodLabel('2026')]).toEqual([
      'Mar 2026',
      'Q1 2026',
      '2026',
    ]);
  });

  it('stacks the largest categories and adds the rest up as Other, to the cent', () => {
    const names = Array.from({ length: STACKED_CATEGORIES + 2 }, (_, i) => `C${i}`);
    const periods = [
      period(
        '2026-01',
        names.map((n, i) => [n, 10 + i + 0.1] as [string, number]),
      ),
      period('2026-02', [
        ['C0', 0.1],
        ['C7', 0.2],
      ]),
    ];
    const series = stackedSeries(periods, 'expenses');
    expect(series.map((s) => s.label)).toEqual(['C7', 'C6', 'C5', 'C4', 'C3', 'C2', 'Other']);
    // Other: C0 10.10 + C1 11.10 in January, C0 0.10 in February.
    expect(series.at(-1)?.data).toEqual([21.2, 0.1]);
    expect(series[0]?.data).toEqual([17.1, 0.2]);
    // Every period's stack adds up to its expenses.
    periods.forEach((p, i) => {
      const sum = series.reduce((n, s) => n + Math.round((s.data[i] ?? 0) * 100), 0);
      expect(sum).toBe(Math.round(p.expenses * 100));
    });
    expect(stackedSeries(periods, 'income')).toEqual([]);
  });

  it("stacks sums past one invoice's largest amount, to the cent", () => {
    // Two invoices of 999,999,999.99 in Rent: a category's sum is past what toCents (an input check) accepts.
    const periods = [
      period('2026-11', [
        ['Rent', 1999999999.98],
        ['Food', 0.01],
      ]),
    ];
    expect(stackedSeries(periods, 'expenses')).toEqual([
      { label: 'Rent', data: [1999999999.98] },
      { label: 'Food', data: [0.01] },
    ]);
    expect(percentChange(-1999999999.98, -999999999.99)).toBe('−50.0%');
  });

  it('puts the same months of the last three years side by side, null where a year has no such period', () => {
    const trends: Trends = {
      interval: 'month',
      periods: ['2023-12', '2024-01', '2025-01', '2025-02', '2026-01'].map((key) => period(key, [['A', 5]])),
    };
    const { slots, years } = yearOverYear(trends, 'expenses');
    expect(slots).toHaveLength(12);
    expect(years.map((y) => y.year)).toEqual(['2024', '2025', '2026']);
    expect(years.map((y) => y.data.slice(0, 2))).toEqual([
      [5, null],
      [5, 5],
      [5, null],
    ]);
    expect(yearOverYear({ interval: 'year', periods: [period('2025', [['A', 1]])] }, 'expenses')).toEqual({
      slots: ['Year'],
      years: [{ year: '2025', data: [1] }],
    });
  });

  it('says the change in percent, or nothing without a base', () => {
    expect(percentChange(126.25, 136.25)).toBe('+7.9%');
    expect(percentChange(100, 90)).toBe('−10.0%');
    expect([percentChange(0, 5), percentChange(null, 5), percentChange(5, null)]).toEqual([null, null, null]);
  });
});
