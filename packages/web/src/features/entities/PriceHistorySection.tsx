import { formatUsd } from '@billfold/contract/money';
import type { PriceChange, PriceHistory } from '@billfold/contract/price-history';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { useId } from 'react';
import { usePriceHistory } from '../../api/entities/get-price-history.ts';
import { ChartTable, LEGEND_BELOW, MONEY_AXIS, moneyValue } from '../../components/charts.tsx';

/** `+16.00 (+20.0%)`, `-4.00 (-4.0%)`, `+5.00` from 0; a dash without an earlier invoice. */
export function changeText(change: PriceChange | null): string {
  if (change === null) return '—';
  const sign = change.change > 0 ? '+' : change.change < 0 ? '-' : '±';
  const percent = change.percent === null ? '' : ` (${change.percent > 0 ? '+' : ''}${change.percent.toFixed(1)}%)`;
  return `${sign}${formatUsd(Math.abs(change.change))}${percent}`;
}

/**
 * "Price history" on the entity page (docs/product.md, Entity page; docs/decisions/0211-price-history.md): each
 * invoice's amount over time as a line, the latest one's change vs the previous and vs a year before, and a table
 * of every point for screen readers.
 */
export function PriceHistorySection({ entityId }: { entityId: number }) {
  const { data, isError } = usePriceHistory(entityId);
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        Price history
      </Typography>
      {isError ? (
        <Typography color="text.secondary" role="status">
          The price history could not be loaded.
        </Typography>
      ) : !data ? (
        <Skeleton variant="rectangular" height={240} />
      ) : data.points.length === 0 ? (
        <Typography color="text.secondary">No invoices yet.</Typography>
      ) : (
        <PriceChart history={data} />
      )}
    </Box>
  );
}

function PriceChart({ history }: { history: PriceHistory }) {
  const theme = useTheme();
  const latest = history.points.at(-1);
  return (
    <>
      {latest && (
        <Typography variant="body2" color="text.secondary" data-testid="price-latest">
          Latest {formatUsd(latest.amount)} on {latest.date} · {changeText(latest.vsPrevious)} vs previous ·{' '}
          {changeText(latest.vsYearBefore)} vs a year before
        </Typography>
      )}
      <Box data-testid="price-chart">
        <LineChart
          height={240}
          xAxis={[
            {
              scaleType: 'time',
              data: history.points.map((p) => new Date(`${p.date}T00:00:00Z`)),
              valueFormatter: (d: Date) => d.toISOString().slice(0, 10),
              tickNumber: 4,
            },
          ]}
          yAxis={[MONEY_AXIS]}
          series={[
            {
              label: 'Amount',
              data: history.points.map((p) => p.amount),
              color: theme.palette.primary.main,
              curve: 'linear',
              showMark: history.points.length <= 60,
              valueFormatter: moneyValue,
            },
          ]}
          slotProps={LEGEND_BELOW}
        />
      </Box>
      <ChartTable
        caption="Invoice amounts over time"
        columns={['Date', 'Invoice', 'Amount', 'Change vs previous', 'Change vs a year before']}
        rows={history.points.map((p) => ({
          key: String(p.entryId),
          head: p.date,
          cells: [String(p.invoiceId), formatUsd(p.amount), changeText(p.vsPrevious), changeText(p.vsYearBefore)],
        }))}
      />
    </>
  );
}
