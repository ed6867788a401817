import Box from '@mui/material/Box';
import type { EntryFilterParams } from '../../api/invoices/list-invoices.ts';
import { useStats } from '../../api/stats/get-stats.ts';
import { IncomeExpenseChart } from './IncomeExpenseChart.tsx';
import { StatsBreakdown, TopPaymentInsights } from './StatsBreakdown.tsx';

export interface StatsPanelProps {
  /** The same filters as the invoice grid (e.g. one entity's `partyList`). */
  filters: EntryFilterParams;
  /** Top Payment Insights: the home page shows them, the entity page does not (docs/product.md, Stats). */
  showInsights?: boolean;
  /** The income/expenses bar chart. */
  showChart?: boolean;
}

/** `GET /entries/stats` for `filters`, as the breakdown cards (plus insights and chart when asked). */
export function StatsPanel({ filters, showInsights = false, showChart = false }: StatsPanelProps) {
  const { data, isError } = useStats(filters);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <StatsBreakdown stats={isError ? null : data} />
      {showChart && data && <IncomeExpenseChart stats={data} />}
      {showInsights && data && <TopPaymentInsights stats={data} />}
    </Box>
  );
}
