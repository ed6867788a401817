import Box from '@mui/material/Box';
import type { EntryFilterParams } from '../../api/invoices/list-invoices.ts';
import { StatsPanel } from '../../components/stats/StatsPanel.tsx';
import { TrendsCard } from '../../components/stats/TrendsCard.tsx';

/** The home page's Stats tab: both breakdowns, the income/expenses chart, Top Payment Insights and the trends, same filters. */
export function StatsTab({ filters }: { filters: EntryFilterParams }) {
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <StatsPanel filters={filters} showInsights showChart />
      <TrendsCard filters={filters} />
    </Box>
  );
}
