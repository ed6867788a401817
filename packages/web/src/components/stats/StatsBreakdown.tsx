import type { Stats } from '@billfold/contract/stats';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { breakdownCards, expenseFigures, type Figure, incomeFigures, insightLists } from './stats-view.ts';

function FigureCard({ title, figures, accent }: { title: string; figures: Figure[] | null; accent: string }) {
  const headingId = useId();
  return (
    <Card
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ borderTop: 4, borderTopColor: accent, height: '100%' }}
    >
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: 'auto 1fr',
            columnGap: 2,
            rowGap: 1,
            alignItems: 'baseline',
          }}
        >
          {(figures ?? Array.from({ length: 5 }, (_, i) => ({ label: `${i}`, value: '' }))).map((figure) => (
            <Box key={figure.label} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {figures ? figure.label : <Skeleton width={120} />}
              </Typography>
              <Typography component="dd" variant="body1" sx={{ m: 0, textAlign: 'right', fontWeight: 500 }}>
                {figures ? figure.value : <Skeleton />}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

/** Top Payment Insights (docs/product.md, Stats): six lists of at most 5, `No data available` when a list is empty. */
export function TopPaymentInsights({ stats }: { stats: Stats }) {
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2" gutterBottom>
          Top Payment Insights
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(3, 1fr)' } }}>
          {insightLists(stats).map((list) => (
            <InsightListView key={list.title} title={list.title} items={list.items} />
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

function InsightListView({ title, items }: { title: string; items: Figure[] }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      {items.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No data available
        </Typography>
      ) : (
        <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
          {items.map((item) => (
            <Typography component="li" variant="body2" key={item.label} sx={{ py: 0.25 }}>
              <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
                <span>{item.label}</span>
                <Box component="span" sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>
                  {item.value}
                </Box>
              </Box>
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}

export interface StatsBreakdownProps {
  /** The server's figures; `undefined` while loading (placeholders show), `null` when they could not be loaded. */
  stats: Stats | null | undefined;
  /** Add Top Payment Insights (the home page does; the entity page does not). */
  showInsights?: boolean;
}

/** Income Breakdown and Expenses Breakdown cards, in USD, optionally with Top Payment Insights. */
export function StatsBreakdown({ stats, showInsights = false }: StatsBreakdownProps) {
  if (stats === null) {
    return (
      <Typography color="text.secondary" role="status">
        Statistics could not be loaded.
      </Typography>
    );
  }
  // While loading both placeholders show; then a card of nothing but zeros is left out (see `breakdownCards`).
  const shown = stats ? breakdownCards(stats) : { income: true, expense: true };
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {shown.income && (
          <FigureCard title="Income Breakdown" figures={stats ? incomeFigures(stats) : null} accent="success.main" />
        )}
        {shown.expense && (
          <FigureCard title="Expenses Breakdown" figures={stats ? expenseFigures(stats) : null} accent="error.main" />
        )}
      </Box>
      {showInsights && stats && <TopPaymentInsights stats={stats} />}
    </Box>
  );
}
