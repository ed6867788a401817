import { BILL_SORT_FIELDS, type BillOverview, type BillSortField } from '@billfold/contract/bills';
import { categoryLabel } from '@billfold/contract/categories';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import { DataGrid, type GridColDef, type GridSortModel } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { DueDate } from '../../components/DueDate.tsx';
import { EntityRowActions, type EntityRowsProps, openBalanceLines, scheduleLine } from './entity-actions.tsx';

const isSortField = (field: string): field is BillSortField => (BILL_SORT_FIELDS as readonly string[]).includes(field);

/** Lines in a cell, each kept whole (rows grow to fit them). */
function Lines({ lines, muted = false }: { lines: string[]; muted?: boolean }) {
  return (
    <Box sx={{ py: 1, lineHeight: 1.5, color: muted ? 'text.secondary' : undefined }}>
      {lines.map((line) => (
        <Box key={line}>{line}</Box>
      ))}
    </Box>
  );
}

/** The Entities page's grid (900 px and up): server-side paging and sorting, as the invoice grid. */
export function EntitiesGrid({
  rows,
  total,
  loading,
  view,
  pageSizeOptions,
  actions,
  onPage,
  onSort,
}: EntityRowsProps) {
  const columns = useMemo<GridColDef<BillOverview>[]>(
    () => [
      {
        field: 'name',
        headerName: 'Name',
        flex: 1.2,
        minWidth: 180,
        renderCell: ({ row }) => (
          <Box sx={{ py: 1, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', minWidth: 0 }}>
            <Link component={RouterLink} to={`/entities/${row.id}`} sx={{ overflowWrap: 'anywhere' }}>
              {row.name}
            </Link>
            {row.status === 0 && <Chip label="Archived" size="small" color="warning" variant="outlined" />}
          </Box>
        ),
      },
      {
        field: 'category',
        headerName: 'Category',
        minWidth: 140,
        valueGetter: (_value, row) => categoryLabel(row.category),
      },
      {
        field: 'invoices',
        headerName: 'Invoices',
        type: 'number',
        minWidth: 100,
        valueGetter: (_value, row) => row.invoiceCount,
      },
      {
        field: 'balance',
        headerName: 'Open Balance',
        minWidth: 170,
        align: 'right',
        headerAlign: 'right',
        renderCell: ({ row }) => (
          <Box sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
            <Lines lines={openBalanceLines(row)} muted={row.balance.toPay + row.balance.toCollect === 0} />
          </Box>
        ),
      },
      {
        field: 'nextDue',
        headerName: 'Next Due',
        minWidth: 170,
        renderCell: ({ row }) => <DueDate entry={{ dueDate: row.nextDueDate, status: false }} dense />,
      },
      {
        field: 'schedules',
        headerName: 'Recurring Invoices',
        sortable: false,
        flex: 1.5,
        minWidth: 200,
        renderCell: ({ row }) =>
          row.schedules.length === 0 ? (
            <Box sx={{ color: 'text.secondary' }}>—</Box>
          ) : (
            <Lines lines={row.schedules.map(scheduleLine)} />
          ),
      },
      {
        field: 'actions',
        headerName: 'Actions',
        sortable: false,
        minWidth: 210,
        renderCell: ({ row }) => <EntityRowActions bill={row} actions={actions} />,
      },
    ],
    [actions],
  );

  return (
    <Paper variant="outlined">
      <DataGrid<BillOverview>
        label="Entities"
        rows={rows ?? []}
        columns={columns}
        loading={loading}
        rowCount={total}
        paginationMode="server"
        sortingMode="server"
        paginationModel={{ page: view.page, pageSize: view.pageSize }}
        onPaginationModelChange={(model) => onPage(model.page, model.pageSize)}
        pageSizeOptions={[...pageSizeOptions]}
        sortModel={view.sortModel as GridSortModel}
        onSortModelChange={(model) =>
          onSort(
            model.flatMap((item) =>
              item.sort && isSortField(item.field) ? [{ field: item.field, sort: item.sort }] : [],
            ),
          )
        }
        getRowHeight={() => 'auto'}
        autoHeight
        disableColumnFilter
        disableColumnMenu
        disableRowSelectionOnClick
        localeText={{ noRowsLabel: 'No entities found.' }}
        sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
      />
    </Paper>
  );
}
