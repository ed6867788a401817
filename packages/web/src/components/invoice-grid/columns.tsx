import { categoryLabel } from '@billfold/contract/categories';
import type { Entry } from '@billfold/contract/entries';
import { formatAmount } from '@billfold/contract/money';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router-dom';
import { isOverdue } from '../DueDate.tsx';
import { FlowIcon, PaidIcon } from './icons.tsx';

/**
 * Wide enough for the largest amount, `999,999,999.99` (decision 0603); the other fixed columns are as narrow as
 * their headers allow, so that all 11 columns fit at 1280 px.
 */
export const MONEY_COLUMN_WIDTH = 130;

/** The 11 columns (docs/product.md, Home (/home)) and the optional Due; every field is one the server sorts by (`sortField`). */
export const INVOICE_COLUMNS: GridColDef<Entry>[] = [
  {
    field: 'invoiceId',
    headerName: 'Invoice #',
    type: 'number',
    width: 80,
    align: 'left',
    headerAlign: 'left',
    renderCell: ({ row }) => (
      <Link component={RouterLink} to={`/entries/${row.entryId}`}>
        {row.invoiceId}
      </Link>
    ),
  },
  {
    field: 'name',
    headerName: 'Entity',
    minWidth: 120,
    flex: 1,
    renderCell: ({ row }) => (
      <Link component={RouterLink} to={`/entities/${row.billId}`}>
        {row.name}
      </Link>
    ),
  },
  { field: 'date', headerName: 'Date', width: 100, valueGetter: (_value, row) => row.date.slice(0, 10) },
  {
    field: 'flow',
    headerName: 'Flow',
    width: 80,
    align: 'center',
    headerAlign: 'center',
    renderCell: ({ row }) => <FlowIcon entry={row} />,
  },
  {
    field: 'amount',
    headerName: 'Amount',
    type: 'number',
    width: MONEY_COLUMN_WIDTH,
    valueFormatter: (value: number) => formatAmount(value),
  },
  {
    field: 'status',
    headerName: 'Paid',
    width: 80,
    align: 'center',
    headerAlign: 'center',
    renderCell: ({ row }) => <PaidIcon entry={row} />,
  },
  {
    field: 'balance',
    headerName: 'Balance',
    type: 'number',
    width: MONEY_COLUMN_WIDTH,
    valueGetter: (_value, row) => row.balance.totalBalance,
    valueFormatter: (value: number) => formatAmount(value),
  },
  { field: 'services', headerName: 'Description', minWidth: 100, flex: 1.5 },
  { field: 'category', headerName: 'Category', width: 125, valueGetter: (_value, row) => categoryLabel(row.category) },
  { field: 'internal', headerName: 'Internal', type: 'boolean', width: 80 },
  { field: 'archived', headerName: 'Archived', type: 'boolean', width: 85 },
  {
    field: 'dueDate',
    headerName: 'Due',
    width: 100,
    renderCell: ({ row }) => <DueCell entry={row} />,
  },
];

/** Columns a grid hides until the user shows them from the column chooser. */
export const HIDDEN_BY_DEFAULT: Readonly<Record<string, false>> = { dueDate: false };

/** The due date, in the error colour while the invoice is overdue (the column is too narrow for a chip). */
function DueCell({ entry }: { entry: Entry }) {
  if (!entry.dueDate) return null;
  return isOverdue(entry) ? (
    <Box component="span" sx={{ color: 'error.main', fontWeight: 500 }} title="Overdue">
      {entry.dueDate}
    </Box>
  ) : (
    entry.dueDate
  );
}
