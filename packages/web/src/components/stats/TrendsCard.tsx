import { formatUsd, formatUsdCompact } from '@billfold/contract/money';
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
import { visuallyHidden } from '../visually-hidden.ts';
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

const money = (value: number | null) => (value === null ? '' : formatUsd(value));
const axis = { valueFormatter: (value: number) => formatUsdCompact(value), width: 72 };

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
  const headingId = useId();
  const labels = trends.periods.map((p) => periodLabel(p.period));
  const series = stackedSeries(trends.periods, side);
  const title = `${side === 'expenses' ? 'Expenses' : 'Income'} by category and ${trends.interval}`;
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Box data-testid="trends-stacked-chart">
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
          yAxis={[axis]}
          series={series.map((s) => ({ ...s, stack: 'total', valueFormatter: money }))}
          slotProps={{ legend: { direction: 'horizontal', position: { vertical: 'bottom', horizontal: 'center' } } }}
        />
      </Box>
      <Box sx={visuallyHidden}>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Income</th>
              <th scope="col">Expenses</th>
              <th scope="col">Net</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {trends.periods.map((p, i) => (
              <tr key={p.period}>
                <th scope="row">{labels[i]}</th>
                <td>{formatUsd(p.income)}</td>
                <td>{formatUsd(p.expenses)}</td>
                <td>{formatUsd(p.net)}</td>
                {series.map((s) => (
                  <td key={s.label}>{formatUsd(s.data[i] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
    </Box>
  );
}

function YearOverYear({ trends, side }: { trends: Trends; side: TrendSide }) {
  const headingId = useId();
  const { slots, years } = yearOverYear(trends, side);
  const title = `${side === 'expenses' ? 'Expenses' : 'Income'}, year over year`;
  const last = years.at(-1);
  const before = years.at(-2);
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Box data-testid="trends-yoy-chart">
        <BarChart
          height={280}
          xAxis={[{ scaleType: 'band', data: slots }]}
          yAxis={[axis]}
          series={years.map((y) => ({ label: y.year, data: y.data, valueFormatter: money }))}
          slotProps={{ legend: { direction: 'horizontal', position: { vertical: 'bottom', horizontal: 'center' } } }}
        />
      </Box>
      <Box sx={visuallyHidden}>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              {years.map((y) => (
                <th scope="col" key={y.year}>
                  {y.year}
                </th>
              ))}
              {last && before && <th scope="col">{`Change ${before.year} to ${last.year}`}</th>}
            </tr>
          </thead>
          <tbody>
            {slots.map((slot, i) => (
              <tr key={slot}>
                <th scope="row">{slot}</th>
                {years.map((y) => (
                  <td key={y.year}>{money(y.data[i] ?? null)}</td>
                ))}
                {last && before && <td>{percentChange(before.data[i] ?? null, last.data[i] ?? null) ?? ''}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
    </Box>
  );
}
