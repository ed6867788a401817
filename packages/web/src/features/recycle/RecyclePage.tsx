import { formatAmount } from '@billfold/contract/money';
import { paymentMethodLabel } from '@billfold/contract/payment-methods';
import type { RecycleItem } from '@billfold/contract/recycle';
import DeleteForever from '@mui/icons-material/DeleteForever';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { serverReason } from '../../api/outcome.ts';
import { useDeleteForever } from '../../api/recycle/delete-forever.ts';
import { useRecycleBin } from '../../api/recycle/list-recycle.ts';
import { useRestoreItem } from '../../api/recycle/restore-item.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type ColumnContent, useContentWidths } from '../../components/column-widths.ts';
import { MONEY_COLUMN_WIDTH, MONEY_SAMPLES } from '../../components/invoice-grid/columns.tsx';
import { ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { NOTICE_MS } from '../../lib/timing.ts';
import { RestoreAsDialog, type RestoreAsTarget } from './RestoreAsDialog.tsx';
import {
  canRestoreUnderAnotherName,
  daysLeft,
  deleteForeverNotice,
  deleteForeverQuestion,
  restoreNotice,
} from './restore-message.ts';

const PAGE_SIZES = [10, 25, 50, 100];
const NO_ITEMS: RecycleItem[] = [];
const rowId = (item: RecycleItem) => `${item.entityType}-${item.entityId}`;

/** A payment's type is its method code; invoices say Income/Expense, entities Active/Archived. */
function typeLabel(item: RecycleItem): string {
  if (!item.type) return '';
  return item.entityType === 'Payment' ? paymentMethodLabel(item.type) : item.type;
}

/**
 * Each column as wide as what it shows (decision 0604): the deletion time, names, amounts and headers in full. The
 * long titles of short values (Component, Invoice Number, Invoice/Payment Date) keep no room for a sort arrow, so
 * that more fits in sight.
 */
const RECYCLE_COLUMN_CONTENT: Readonly<Record<string, ColumnContent<RecycleItem>>> = {
  entityType: { header: 'Component', text: (item) => item.entityType, sortRoom: false, min: 96, fallback: 105 },
  recycleDate: { header: 'Deletion Date', text: (item) => formatTimestamp(item.recycleDate), min: 150, fallback: 190 },
  partyName: { header: 'Entity Name', text: (item) => item.partyName ?? '', min: 120, max: 320, fallback: 180 },
  invoiceNumber: {
    header: 'Invoice Number',
    text: (item) => String(item.invoiceNumber ?? ''),
    sortRoom: false,
    min: 96,
    fallback: 130,
  },
  entityDate: {
    header: 'Invoice/Payment Date',
    text: (item) => item.entityDate ?? '',
    sortRoom: false,
    min: 120,
    fallback: 170,
  },
  amount: { header: 'Amount', samples: MONEY_SAMPLES, min: 96, fallback: MONEY_COLUMN_WIDTH },
  type: { header: 'Type', text: typeLabel, min: 80, fallback: 110 },
};

/**
 * `/recycle` (docs/product.md, Recycle bin (/recycle)): what was deleted in the last 14 days, each with the days left
 * before it is purged, Restore, and Delete Forever after a confirmation
 * (docs/decisions/0106-recycle-bin-purge-date-and-delete-forever.md).
 */
export default function RecyclePage() {
  const bin = useRecycleBin();
  const restore = useRestoreItem();
  const notify = useNotice();
  const [working, setWorking] = useState<string | null>(null);
  const [restoreAs, setRestoreAs] = useState<RestoreAsTarget | null>(null);
  const remove = useDeleteForever();
  const [toDelete, setToDelete] = useState<RecycleItem | null>(null);
  // The moment the list was read: the days left count from it (the list refetches on every visit).
  const now = bin.dataUpdatedAt || Date.now();

  const confirmDelete = async () => {
    if (!toDelete) return;
    const outcome = await remove.mutateAsync({ entityType: toDelete.entityType, entityId: toDelete.entityId });
    setToDelete(null);
    const { message, severity } = deleteForeverNotice(outcome);
    notify(message, { severity, placement: 'bottom', duration: NOTICE_MS.recycle });
  };
  const widths = useContentWidths(bin.data ?? NO_ITEMS, RECYCLE_COLUMN_CONTENT);

  const { readOnlyReason } = useLedgerAccess();
  const columns = useMemo<GridColDef<RecycleItem>[]>(() => {
    const run = async (item: RecycleItem) => {
      setWorking(rowId(item));
      const outcome = await restore.mutateAsync({ entityType: item.entityType, entityId: item.entityId });
      setWorking(null);
      if (!outcome.ok && canRestoreUnderAnotherName(item.entityType, outcome)) {
        setRestoreAs({ id: item.entityId, name: item.partyName ?? '', reason: serverReason(outcome) });
        return;
      }
      const { message, severity } = restoreNotice(item.entityType, outcome);
      notify(message, { severity, placement: 'bottom', duration: NOTICE_MS.recycle });
    };
    const actions: GridColDef<RecycleItem> = {
      field: 'actions',
      headerName: 'Actions',
      // Restore and the Delete-forever icon, and no more: at 1366 px every column fits beside them.
      width: 130,
      sortable: false,
      filterable: false,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, height: '100%' }}>
          <ReadOnlyTip reason={readOnlyReason}>
            <Button
              size="small"
              onClick={() => run(row)}
              disabled={working === rowId(row) || readOnlyReason !== null}
              aria-label={`Restore ${row.entityType} ${row.partyName ?? ''}`.trim()}
            >
              Restore
            </Button>
          </ReadOnlyTip>
          <Tooltip title={readOnlyReason ?? 'Delete forever'}>
            <span>
              <IconButton
                size="small"
                color="error"
                onClick={() => setToDelete(row)}
                disabled={working === rowId(row) || readOnlyReason !== null}
                aria-label={`Delete forever ${row.entityType} ${row.partyName ?? ''}`.trim()}
              >
                <DeleteForever fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      ),
    };
    const details: GridColDef<RecycleItem>[] = [
      { field: 'entityType', headerName: 'Component', width: widths.entityType },
      {
        field: 'recycleDate',
        headerName: 'Deletion Date',
        width: widths.recycleDate,
        valueFormatter: (value: string) => formatTimestamp(value),
      },
      {
        field: 'purgeDate',
        headerName: 'Days Left',
        width: 90,
        description: 'Days until the item is deleted permanently',
        renderCell: ({ row }) => {
          const left = daysLeft(row.purgeDate, now);
          return (
            <Box component="span" title={`Deleted permanently from ${formatTimestamp(row.purgeDate)}`}>
              <Box component="span" sx={{ color: left.days <= 2 ? 'error.main' : undefined }}>
                {left.label}
              </Box>
            </Box>
          );
        },
      },
      { field: 'partyName', headerName: 'Entity Name', width: widths.partyName },
      {
        field: 'invoiceNumber',
        headerName: 'Invoice Number',
        width: widths.invoiceNumber,
        type: 'number',
        align: 'left',
        headerAlign: 'left',
      },
      { field: 'entityDate', headerName: 'Invoice/Payment Date', width: widths.entityDate },
      {
        field: 'amount',
        headerName: 'Amount',
        width: widths.amount,
        type: 'number',
        valueFormatter: (value: number | null) => (value == null ? '' : formatAmount(value)),
      },
      { field: 'type', headerName: 'Type', width: widths.type, valueGetter: (_value, row) => typeLabel(row) },
      { field: 'details', headerName: 'Details', flex: 1, minWidth: 120 },
    ];
    // Restore comes first, where it can always be seen and reached: the columns are as wide as what they show
    // (decision 0604), so a bin of long names scrolls sideways, on a phone and at 1366 px alike.
    return [actions, ...details];
  }, [restore, notify, working, widths, now, readOnlyReason]);

  return (
    <Container maxWidth="xl" sx={{ py: 4 }}>
      {bin.isPending && <PageProgress />}
      <Typography variant="h5" component="h1" sx={{ mb: 1, fontWeight: 500 }}>
        Recycle Bin
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Deleted entities, invoices and payments stay here for 14 days, then they are deleted permanently. Delete Forever
        removes one sooner.
      </Typography>
      {bin.isError ? (
        <Alert severity="error">Failed to load the recycle bin.</Alert>
      ) : (
        <Paper variant="outlined">
          <DataGrid
            label="Recycle bin"
            rows={bin.data ?? []}
            columns={columns}
            getRowId={rowId}
            loading={bin.isPending}
            autoHeight
            disableRowSelectionOnClick
            pageSizeOptions={PAGE_SIZES}
            initialState={{ pagination: { paginationModel: { pageSize: 25, page: 0 } } }}
            localeText={{ noRowsLabel: 'The recycle bin is empty.' }}
            sx={{ border: 0 }}
          />
        </Paper>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete forever?"
        confirmLabel="Delete Forever"
        destructive
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      >
        {toDelete ? deleteForeverQuestion(toDelete) : ''}
      </ConfirmDialog>
      {restoreAs && (
        <RestoreAsDialog
          target={restoreAs}
          onClose={() => setRestoreAs(null)}
          onRestored={() => {
            setRestoreAs(null);
            notify('Entity restored successfully.', {
              severity: 'success',
              placement: 'bottom',
              duration: NOTICE_MS.recycle,
            });
          }}
        />
      )}
    </Container>
  );
}
