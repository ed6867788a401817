import type { EntryFilterParams } from '../../api/invoices/list-invoices.ts';
import { StatsPanel } from '../../components/stats/StatsPanel.tsx';

/** The home page's Stats tab: both breakdowns, the income/expenses chart and Top Payment Insights, same filters. */
export function StatsTab({ filters }: { filters: EntryFilterParams }) {
  return <StatsPanel filters={filters} showInsights showChart />;
}
