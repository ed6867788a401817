import type { Stats } from '@billfold/contract/stats';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { BarChart } from '@mui/x-charts/BarChart';
import { useId } from 'react';
import { MONEY_AXIS, moneyValue } from '../charts.tsx';

/** Bars of the chart: one group per measure, income next to expenses. */
export function chartData(stats: Stats): { measures: string[]; income: number[]; expenses: number[] } {
  return {
    measures: ['Total', 'Paid', 'Outstanding', 'Overpaid'],
    income: [
      stats.totalIncomeAmount,
      stats.totalReceivedPaymentAmount,
      stats.totalIncomeOutstanding,
      stats.totalIncomeOverpaid,
    ],
    expenses: [
      stats.totalExpenseAmount,
      stats.totalSentPaymentAmount,
      stats.totalExpenseUnpaid,
      stats.totalExpenseOverpaid,
    ],
  };
}

/** Beyond the original product (issue 5): income and expenses side by side, because people would rather look than read. */
export function IncomeExpenseChart({ stats }: { stats: Stats }) {
  const theme = useTheme();
  // On a phone the four measure names do not fit side by side (the chart would drop one): they slant.
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const headingId = useId();
  const data = chartData(stats);
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2">
          Income and Expenses
        </Typography>
        <BarChart
          height={300}
          xAxis={[
            {
              scaleType: 'band',
              data: data.measures,
              ...(narrow
                ? { tickLabelStyle: { angle: -35, textAnchor: 'end' as const }, height: 'auto' as const }
                : {}),
            },
          ]}
          yAxis={[MONEY_AXIS]}
          series={[
            { label: 'Income', data: data.income, color: theme.palette.success.main, valueFormatter: moneyValue },
            { label: 'Expenses', data: data.expenses, color: theme.palette.error.main, valueFormatter: moneyValue },
          ]}
        />
      </CardContent>
    </Card>
  );
}
