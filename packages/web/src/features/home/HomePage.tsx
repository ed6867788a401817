import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { homeGridStore } from '../../components/invoice-grid/grid-state.ts';
import { InvoiceGrid } from '../../components/invoice-grid/InvoiceGrid.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { visuallyHidden } from '../../components/visually-hidden.ts';
import { dueChoiceOf } from '../../lib/due-links.ts';
import { DuePanel } from './DuePanel.tsx';
import { FilterPanel } from './FilterPanel.tsx';
import { FilterSheet } from './FilterSheet.tsx';
import { ForecastCard } from './ForecastCard.tsx';
import { showDue } from './filter-model.ts';
import { useHomeFilters } from './use-home-filters.ts';

// The charts load with the Stats tab, not with the grid people see first.
const StatsTab = lazy(() => import('./StatsTab.tsx').then((m) => ({ default: m.StatsTab })));

type HomeTab = 'invoices' | 'stats';

/**
 * `/home` (docs/product.md, Home (/home)): the upcoming-and-overdue panel and the filter panel above left vertical tabs
 * Invoices and Stats. The home feature owns its filter panel, due panel and Stats tab, and draws the shared
 * invoice grid (docs/decisions/1110-web-folders-named-for-what-users-see.md); filters, paging, sort and columns
 * are saved in session storage (docs/product.md, Saved view settings).
 */
export default function HomePage() {
  const filters = useHomeFilters();
  const [tab, setTab] = useState<HomeTab>('invoices');
  const [searchParams, setSearchParams] = useSearchParams();
  const linkedDue = dueChoiceOf(searchParams.get('due'));
  const { apply, setShowMoreOptions } = filters;

  // `?due=overdue` (the Home panel's and the top bar's links): show that selection in the grid, then drop the
  // parameter so that a reload shows the saved filters like any other visit.
  useEffect(() => {
    if (!linkedDue) return;
    apply((state) => showDue(state, linkedDue));
    setShowMoreOptions(true);
    setTab('invoices');
    setSearchParams({}, { replace: true });
  }, [linkedDue, apply, setShowMoreOptions, setSearchParams]);
  const id = useId();
  const theme = useTheme();
  // Vertical tabs on the left (docs/product.md, Home (/home)); a phone has no width to spare, so there they sit on top.
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  // Phones and small tablets fold the filter panel into a sheet (decision 0801).
  const narrow = useMediaQuery(theme.breakpoints.down('md'));

  // docs/product.md, Saved view settings: a page restored from the back-forward cache is reloaded, so it shows the saved state and fresh data.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'grid', gap: 2, maxWidth: 1600, mx: 'auto' }}>
      <Box component="h1" sx={visuallyHidden}>
        Home
      </Box>
      <DuePanel />
      <ForecastCard />
      {narrow ? (
        <FilterSheet filters={filters} />
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <FilterPanel filters={filters} />
        </Box>
      )}
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: { xs: 1, sm: 2 }, minWidth: 0 }}>
        <Tabs
          orientation={phone ? 'horizontal' : 'vertical'}
          variant={phone ? 'fullWidth' : 'standard'}
          value={tab}
          onChange={(_event, value: HomeTab) => setTab(value)}
          aria-label="Home sections"
          sx={{ flexShrink: 0, borderRight: phone ? 0 : 1, borderBottom: phone ? 1 : 0, borderColor: 'divider' }}
        >
          <Tab label="Invoices" value="invoices" id={`${id}-invoices`} aria-controls={`${id}-invoices-panel`} />
          <Tab label="Stats" value="stats" id={`${id}-stats`} aria-controls={`${id}-stats-panel`} />
        </Tabs>
        <Box
          role="tabpanel"
          id={`${id}-${tab}-panel`}
          aria-labelledby={`${id}-${tab}`}
          sx={{ flexGrow: 1, minWidth: 0 }}
        >
          {tab === 'invoices' ? (
            <InvoiceGrid
              filters={filters.params}
              store={homeGridStore}
              pageResetKey={filters.clearCount}
              label="Invoices"
            />
          ) : (
            <Suspense fallback={<PageProgress />}>
              <StatsTab filters={filters.params} />
            </Suspense>
          )}
        </Box>
      </Box>
    </Box>
  );
}
