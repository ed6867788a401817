import type { Bill } from '@billfold/contract/bills';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Unarchive from '@mui/icons-material/Unarchive';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useEntities } from '../../api/entities/list-entities.ts';
import { useUpdateEntity } from '../../api/entities/update-entity.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';

const PAGE_SIZES = [10, 25, 50, 100];
const RESTORE_FAILED = { failed: 'Failed to restore entity.', error: 'Failed to restore entity.' };
const DELETE_FAILED = { failed: 'Failed to delete entity.', error: 'Failed to delete entity.' };

/** `/archives` (docs/product.md, Archives (/archives)): archived entities with Restore and Delete. */
export default function ArchivesPage() {
  const bills = useEntities('inactive');
  const update = useUpdateEntity();
  const notify = useNotice();
  const [deleting, setDeleting] = useState<Bill | null>(null);
  const [working, setWorking] = useState<number | null>(null);

  const { readOnlyReason } = useLedgerAccess();
  const columns = useMemo<GridColDef<Bill>[]>(() => {
    const restore = async (bill: Bill) => {
      setWorking(bill.id);
      const outcome = await update.mutateAsync({ id: bill.id, status: 1 });
      setWorking(null);
      if (outcome.ok) notify('Entity restored successfully.', { severity: 'success' });
      else notify(failureMessage(outcome, RESTORE_FAILED), { severity: 'error' });
    };
    return [
      {
        field: 'name',
        headerName: 'Name',
        flex: 1,
        // With the actions, narrow enough for a 360 px phone (no sideways scrolling to reach Delete).
        minWidth: 120,
        renderCell: ({ row }) => (
          <Link component={RouterLink} to={`/entities/${row.id}`}>
            {row.name}
          </Link>
        ),
      },
      {
        field: 'actions',
        headerName: 'Actions',
        sortable: false,
        filterable: false,
        width: 210,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1} sx={{ height: '100%', alignItems: 'center' }}>
            <ReadOnlyTip reason={readOnlyReason}>
              <Button
                size="small"
                startIcon={<Unarchive />}
                onClick={() => restore(row)}
                disabled={working === row.id || readOnlyReason !== null}
                aria-label={`Restore ${row.name}`}
              >
                Restore
              </Button>
            </ReadOnlyTip>
            <ReadOnlyTip reason={readOnlyReason}>
              <Button
                size="small"
                color="error"
                startIcon={<DeleteOutlined />}
                onClick={() => setDeleting(row)}
                disabled={working === row.id || readOnlyReason !== null}
                aria-label={`Delete ${row.name}`}
              >
                Delete
              </Button>
            </ReadOnlyTip>
          </Stack>
        ),
      },
    ];
  }, [update, notify, working, readOnlyReason]);

  const remove = async () => {
    if (!deleting) return;
    const outcome = await update.mutateAsync({ id: deleting.id, recycle: true });
    setDeleting(null);
    if (outcome.ok) notify('Entity recycled successfully.', { severity: 'success' });
    else notify(failureMessage(outcome, DELETE_FAILED), { severity: 'error' });
  };

  return (
    <Container sx={{ py: 4, maxWidth: { lg: 900 } }}>
      {bills.isPending && <PageProgress />}
      <Typography variant="h5" component="h1" sx={{ mb: 2, fontWeight: 500 }}>
        Archives
      </Typography>
      <Paper variant="outlined">
        <DataGrid
          label="Archived entities"
          rows={bills.data ?? []}
          columns={columns}
          loading={bills.isPending}
          autoHeight
          disableRowSelectionOnClick
          disableColumnMenu
          pageSizeOptions={PAGE_SIZES}
          initialState={{ pagination: { paginationModel: { pageSize: 25, page: 0 } } }}
          localeText={{ noRowsLabel: 'No archived entities found.' }}
          sx={{ border: 0 }}
        />
      </Paper>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Entity"
        confirmLabel="Delete"
        destructive
        busy={update.isPending}
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
      >
        {deleting
          ? `Delete ${deleting.name} with all its invoices and payments? They stay in the recycle bin for 14 days and are then deleted permanently.`
          : ''}
      </ConfirmDialog>
    </Container>
  );
}
