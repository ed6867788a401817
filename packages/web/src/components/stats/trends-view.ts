import { centsOf, fromCents } from '@billfold/contract/money';
import type { TrendInterval, TrendPeriod, Trends } from '@billfold/contract/trends';

/** Which side of the trends a chart shows. */
export type TrendSide = 'expenses' | 'income';

/** How many categories get a band of their own in the stacked chart; the rest are added up as "Other". */
export const STACKED_CATEGORIES = 6;

/** `2026-03` → `Mar 2026`, `2026-Q1` → `Q1 2026`, `2026` → `2026`: the x axis and the table's first column. */
export function periodLabel(period: string): string {
  const [year, part] = period.split('-');
  if (part === undefined) return period;
  if (part.startsWith('Q')) return `${part} ${year}`;
  return `${MONTHS[Number(part) - 1]} ${year}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The stacked chart's series: one per category with the largest totals of `side` over every period (ties by
 * name), the others added up as "Other", each a value per period. Sums in cents.
 */
export function stackedSeries(periods: TrendPeriod[], side: TrendSide): { label: string; data: number[] }[] {
  const totals = new Map<string, number>();
  for (const p of periods) {
    for (const c of p.categories) totals.set(c.category, (totals.get(c.category) ?? 0) + centsOf(c[side]));
  }
  const ranked = [...totals]
    .filter(([, total]) => total > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name]) => name);
  const own = ranked.slice(0, STACKED_CATEGORIES);
  const series = own.map((name) => ({
    label: name,
    data: periods.map((p) => p.categories.find((c) => c.category === name)?.[side] ?? 0),
  }));
  if (ranked.length > own.length) {
    series.push({
      label: 'Other',
      data: periods.map((p) => {
        const shown = p.categories.filter((c) => own.includes(c.category)).reduce((n, c) => n + centsOf(c[side]), 0);
        return fromCents(centsOf(p[side]) - shown);
      }),
    });
  }
  return series;
}

/**
 * The year-over-year comparison: the periods of the last three years side by side, one series per year over
 * the months (or quarters) of a year; a period outside the answer is null (no bar), not zero. By year there is one
 * slot, "Year".
 */
export function yearOverYear(
  trends: Trends,
  side: TrendSide,
): { slots: string[]; years: { year: string; data: (number | null)[] }[] } {
  const slots = slotsOf(trends.interval);
  const byPeriod = new Map(trends.periods.map((p) => [p.period, p]));
  const years = [...new Set(trends.periods.map((p) => p.period.slice(0, 4)))].sort().slice(-3);
  return {
    slots: slots.map((s) => s.label),
    years: years.map((year) => ({
      year,
      data: slots.map((s) => {
        const period = byPeriod.get(`${year}${s.suffix}`);
        return period === undefined ? null : period[side];
      }),
    })),
  };
}

function slotsOf(interval: TrendInterval): { label: string; suffix: string }[] {
  if (interval === 'year') return [{ label: 'Year', suffix: '' }];
  if (interval === 'quarter') return [1, 2, 3, 4].map((q) => ({ label: `Q${q}`, suffix: `-Q${q}` }));
  return MONTHS.map((label, i) => ({ label, suffix: `-${String(i + 1).padStart(2, '0')}` }));
}

/** The change from `before` to `after` as `+12.5%` / `−3.0%`, or null when there is nothing to compare with. */
export function percentChange(before: number | null, after: number | null): string | null {
  if (before === null || after === null || before === 0) return null;
  const change = ((centsOf(after) - centsOf(before)) / centsOf(before)) * 100;
  return `${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(1)}%`;
}
