import type { Bill } from '@billfold/contract/bills';
import { categoryLabel } from '@billfold/contract/categories';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Unarchive from '@mui/icons-material/Unarchive';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useUpdateEntity } from '../../api/entities/update-entity.ts';
import { useEntityHistory } from '../../api/history/get-entity-history.ts';
import type { EntryFilterParams } from '../../api/invoices/list-invoices.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ArchivedBanner } from '../../components/ArchivedBanner.tsx';
import { HistoryPanel } from '../../components/HistoryPanel.tsx';
import { InvoiceGrid } from '../../components/invoice-grid/InvoiceGrid.tsx';
import { ReadOnlyBanner, ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { StatsPanel } from '../../components/stats/StatsPanel.tsx';
import type { EntityOrigin } from '../../lib/entity-origin.ts';
import { provenance } from '../../lib/history-view.ts';
import { PriceHistorySection } from './PriceHistorySection.tsx';
import { RouteEntity } from './RouteEntity.tsx';
import { SchedulesSection } from './SchedulesSection.tsx';

/** The entity page's grid (docs/product.md, Timings and limits) offers 2, 5, 10, 25, 50 and 100 rows a page, 10 by default. */
export const ENTITY_PAGE_SIZES = [2, 5, 10, 25, 50, 100] as const;
export const ENTITY_DEFAULT_PAGE_SIZE = 10;

function Frame({ children }: { children: ReactNode }) {
  return (
    <Container maxWidth="xl" sx={{ py: 3 }}>
      {children}
    </Container>
  );
}

/** `/entities/{id}` (docs/product.md, Entity page (/entities/:id)): the entity's header, its invoices and its statistics (without the insights). */
export default function EntityPage() {
  return <RouteEntity frame={Frame}>{(bill) => <EntityDetail bill={bill} />}</RouteEntity>;
}

const RESTORE_FAILED = { failed: 'Failed to restore entity.', error: 'Failed to restore entity.' };

/** Back to active from the archived entity's own page, as Restore on Archives and Entities does. */
function RestoreButton({ bill, reason }: { bill: Bill; reason: string | null }) {
  const update = useUpdateEntity();
  const notify = useNotice();
  const restore = async () => {
    const outcome = await update.mutateAsync({ id: bill.id, status: 1 });
    if (outcome.ok) notify('Entity restored successfully.', { severity: 'success' });
    else notify(failureMessage(outcome, RESTORE_FAILED), { severity: 'error' });
  };
  return (
    <ReadOnlyTip reason={reason}>
      <Button
        variant="contained"
        startIcon={<Unarchive />}
        onClick={restore}
        disabled={update.isPending || reason !== null}
      >
        Restore
      </Button>
    </ReadOnlyTip>
  );
}

function EntityDetail({ bill }: { bill: Bill }) {
  const archived = bill.status === 0;
  const { readOnlyReason } = useLedgerAccess();
  const history = useEntityHistory(bill.id);
  const added = history.data ? provenance(history.data) : null;
  // The list filter names the entity exactly (names are unique per user).
  const filters = useMemo<EntryFilterParams>(() => ({ partyList: [bill.name] }), [bill.name]);
  const origin: EntityOrigin = { entityId: bill.id };

  return (
    <>
      {archived && <ArchivedBanner />}
      {!archived && readOnlyReason && <ReadOnlyBanner reason={readOnlyReason} />}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          {/* The name takes what the actions leave and wraps; the actions keep their one line. */}
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
              {bill.name}
            </Typography>
            {added && (
              <Typography variant="body2" color="text.secondary" data-testid="entity-provenance">
                {added}
              </Typography>
            )}
            <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
              <Chip label={categoryLabel(bill.category)} size="small" />
              {bill.internal && <Chip label="Internal" size="small" color="info" variant="outlined" />}
              <Chip
                label={archived ? 'Archived' : 'Active'}
                size="small"
                color={archived ? 'warning' : 'success'}
                variant="outlined"
              />
            </Stack>
          </Box>
          <Stack
            direction="row"
            spacing={1}
            data-testid="entity-actions"
            sx={{ flexShrink: 0, '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
          >
            {archived && <RestoreButton bill={bill} reason={readOnlyReason} />}
            <ReadOnlyTip reason={archived ? null : readOnlyReason}>
              <Button
                variant="outlined"
                startIcon={<EditOutlined />}
                component={RouterLink}
                to={`/bills/${bill.id}`}
                state={origin}
                disabled={archived || readOnlyReason !== null}
              >
                Edit Entity
              </Button>
            </ReadOnlyTip>
          </Stack>
        </Stack>
      </Paper>

      <SchedulesSection bill={bill} />

      <PriceHistorySection entityId={bill.id} />

      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Invoices
      </Typography>
      <InvoiceGrid
        key={bill.id}
        filters={filters}
        pageSizeOptions={ENTITY_PAGE_SIZES}
        defaultPageSize={ENTITY_DEFAULT_PAGE_SIZE}
        newInvoiceHref={`/invoice?entityName=${encodeURIComponent(bill.name)}`}
        newInvoiceDisabled={archived}
        label={`Invoices of ${bill.name}`}
      />

      <Typography variant="h6" component="h2" sx={{ mt: 4, mb: 1 }}>
        Statistics
      </Typography>
      <StatsPanel filters={filters} />

      <HistoryPanel history={history} />
    </>
  );
}
