import { formatUsd } from '@billfold/contract/money';
import type { TrendInterval, Trends } from '@billfold/contract/trends';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { BarChart } from '@mui/x-charts/BarChart';
import { type ReactNode, useId, useState } from 'react';
import type { EntryFilterParams } from '../../api/invoices/list-invoices.ts';
import { useTrends } from '../../api/stats/get-trends.ts';
import { ChoiceGroup } from '../ChoiceGroup.tsx';
import { ChartTable, LEGEND_BELOW, MONEY_AXIS, moneyValue } from '../charts.tsx';
import { percentChange, periodLabel, stackedSeries, type TrendSide, yearOverYear } from './trends-view.ts';

const INTERVALS = [
  { value: 'month', label: 'Month' },
  { value: 'quarter', label: 'Quarter' },
  { value: 'year', label: 'Year' },
] as const;
const SIDES = [
  { value: 'expenses', label: 'Expenses' },
  { value: 'income', label: 'Income' },
] as const;

/**
 * Trends on the Stats tab (docs/product.md, Stats): income or expenses per period stacked by category, and the
 * same periods of the last three years side by side. Each chart has a table for screen readers with every figure.
 */
export function TrendsCard({ filters }: { filters: EntryFilterParams }) {
  const [interval, setInterval] = useState<TrendInterval>('month');
  const [side, setSide] = useState<TrendSide>('expenses');
  const { data, isError } = useTrends(filters, interval);
  const headingId = useId();
  let body: ReactNode;
  if (isError) {
    body = (
      <Typography color="text.secondary" role="status">
        Trends could not be loaded.
      </Typography>
    );
  } else if (!data) {
    body = <Skeleton variant="rectangular" height={300} />;
  } else if (data.periods.length === 0) {
    body = <Typography color="text.secondary">No invoices match the filters.</Typography>;
  } else {
    body = (
      <>
        <StackedChart trends={data} side={side} />
        <YearOverYear trends={data} side={side} />
      </>
    );
  }
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography id={headingId} variant="h6" component="h2">
          Trends
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <ChoiceGroup label="Period" options={INTERVALS} value={interval} onChange={(v) => v && setInterval(v)} />
          <ChoiceGroup label="Show" options={SIDES} value={side} onChange={(v) => v && setSide(v)} />
        </Box>
        {body}
      </CardContent>
    </Card>
  );
}

function StackedChart({ trends, side }: { trends: Trends; side: TrendSide }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const labels = trends.periods.map((p) => periodLabel(p.period));
  const series = stackedSeries(trends.periods, side);
  const title = `${side === 'expenses' ? 'Expenses' : 'Income'} by category and ${trends.interval}`;
  const chart = (
    <BarChart
      height={narrow ? 320 : 340}
      xAxis={[
        {
          scaleType: 'band',
          data: labels,
          ...(narrow || labels.length > 12
            ? { tickLabelStyle: { angle: -45, textAnchor: 'end' as const }, height: 'auto' as const }
            : {}),
        },
      ]}
      yAxis={[MONEY_AXIS]}
      series={series.map((s) => ({ ...s, stack: 'total', valueFormatter: moneyValue }))}
      slotProps={LEGEND_BELOW}
    />
  );
  return (
    <ChartSection title={title} testId="trends-stacked-chart" chart={chart}>
      <ChartTable
        caption={title}
        columns={['Period', 'Income', 'Expenses', 'Net', ...series.map((s) => s.label)]}
        rows={trends.periods.map((p, i) => ({
          key: p.period,
          head: labels[i] ?? p.period,
          cells: [p.income, p.expenses, p.net, ...series.map((s) => s.data[i] ?? 0)].map(formatUsd),
        }))}
      />
    </ChartSection>
  );
}

function YearOverYear({ trends, side }: { trends: Trends; side: TrendSide }) {
  const { slots, years } = yearOverYear(trends, side);
  const title = `${side === 'expenses' ? 'Expenses' : 'Income'}, year over year`;
  const last = years.at(-1);
  const before = years.at(-2);
  const change = last && before ? [`Change ${before.year} to ${last.year}`] : [];
  const chart = (
    <BarChart
      height={280}
      xAxis={[{ scaleType: 'band', data: slots }]}
      yAxis={[MONEY_AXIS]}
      series={years.map((y) => ({ label: y.year, data: y.data, valueFormatter: moneyValue }))}
      slotProps={LEGEND_BELOW}
    />
  );
  return (
    <ChartSection title={title} testId="trends-yoy-chart" chart={chart}>
      <ChartTable
        caption={title}
        columns={['Period', ...years.map((y) => y.year), ...change]}
        rows={slots.map((slot, i) => ({
          key: slot,
          head: slot,
          cells: [
            ...years.map((y) => moneyValue(y.data[i] ?? null)),
            ...(last && before ? [percentChange(before.data[i] ?? null, last.data[i] ?? null) ?? ''] : []),
          ],
        }))}
      />
    </ChartSection>
  );
}

/** One chart of the card under its own heading, with its table. */
function ChartSection({
  title,
  testId,
  chart,
  children,
}: {
  title: string;
  testId: string;
  chart: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Box data-testid={testId}>{chart}</Box>
      {children}
    </Box>
  );
}
