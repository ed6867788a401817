import { categoryLabel } from '@billfold/contract/categories';
import type { Entry } from '@billfold/contract/entries';
import { formatAmount } from '@billfold/contract/money';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router-dom';
import type { ColumnContent } from '../column-widths.ts';
import { isOverdue } from '../DueDate.tsx';
import { ESTIMATED_SIGN, GridAmount } from '../estimates.tsx';
import { visuallyHidden } from '../visually-hidden.ts';
import { FileCount, FlowIcon, PaidIcon } from './icons.tsx';

/**
 * Wide enough for the largest amount, `999,999,999.99` (decision 0603), in the app's font; the grids size their
 * columns from what they show (decision 0604), and this is the floor where nothing can be measured.
 */
export const MONEY_COLUMN_WIDTH = 136;
/** The largest amount either way (decision 0603): a money column always has room for it. */
export const MONEY_SAMPLES = [formatAmount(-999_999_999.99), formatAmount(999_999_999.99)] as const;
/** Every digit drawn as wide as the widest: a date column always has room for any date. */
export const DATE_SAMPLES = ['0000-00-00', '8888-88-88', '2026-12-30'] as const;

/**
 * The 11 columns (docs/product.md, Home (/home)) and the optional Files (beside the invoice number, so that it shows
 * without scrolling when chosen), Due and Estimate; every field but Files and Estimate is one the server sorts by
 * (`sortField`).
 */
export const INVOICE_COLUMNS: GridColDef<Entry>[] = [
  {
    field: 'invoiceId',
    headerName: 'Invoice #',
    type: 'number',
    width: 88,
    align: 'left',
    headerAlign: 'left',
    renderCell: ({ row }) => (
      <Link component={RouterLink} to={`/entries/${row.entryId}`}>
        {row.invoiceId}
      </Link>
    ),
  },
  {
    // The paperclip (docs/decisions/1143-attachment-count-and-filter.md): the files of the invoice and its payments.
    field: 'attachmentCount',
    headerName: 'Files',
    width: 56,
    sortable: false,
    align: 'center',
    headerAlign: 'center',
    renderHeader: () => (
      <>
        <AttachFileIcon fontSize="small" aria-hidden />
        <Box component="span" sx={visuallyHidden}>
          Files
        </Box>
      </>
    ),
    renderCell: ({ row }) => <FileCount count={row.attachmentCount ?? 0} />,
  },
  {
    field: 'name',
    headerName: 'Entity',
    width: 180,
    renderCell: ({ row }) => (
      <Link component={RouterLink} to={`/entities/${row.billId}`} title={row.name}>
        {row.name}
      </Link>
    ),
  },
  { field: 'date', headerName: 'Date', width: 104, valueGetter: (_value, row) => row.date.slice(0, 10) },
  {
    field: 'flow',
    headerName: 'Flow',
    width: 64,
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
    renderCell: ({ row }) => <GridAmount entry={row} />,
  },
  {
    // What its schedule estimated (docs/decisions/0212-estimated-amounts.md): shown, not sorted by.
    field: 'estimate',
    headerName: 'Estimate',
    type: 'number',
    sortable: false,
    width: MONEY_COLUMN_WIDTH,
    valueFormatter: (value: number | null) => (value === null ? '' : formatAmount(value)),
  },
  {
    field: 'status',
    headerName: 'Paid',
    width: 64,
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
  { field: 'services', headerName: 'Description', minWidth: 100, flex: 1 },
  { field: 'category', headerName: 'Category', width: 140, valueGetter: (_value, row) => categoryLabel(row.category) },
  { field: 'internal', headerName: 'Internal', type: 'boolean', width: 76 },
  { field: 'archived', headerName: 'Archived', type: 'boolean', width: 84 },
  {
    field: 'dueDate',
    headerName: 'Due',
    width: 104,
    renderCell: ({ row }) => <DueCell entry={row} />,
  },
];

/**
 * How the columns are sized from their content (decision 0604): dates and amounts always have room for their widest
 * value, entity names and categories for the longest on the page (up to a limit), and Description, which can be
 * long, takes what is left. Every header of text has room for its sort arrow, so a title stays readable, and
 * clickable, when sorted or hovered; Internal and Archived, whose titles are much wider than their icons, keep none
 * (sorted or hovered, the title shortens to an ellipsis), as the recycle bin's short columns do, so that every
 * column fits at 1280 px beside the largest amounts (e2e/specs/reason-defects.test.ts). Flow and Paid keep it:
 * their titles are so short that the arrow and the menu button would leave nothing to click.
 */
export const INVOICE_COLUMN_CONTENT: Readonly<Record<string, ColumnContent<Entry>>> = {
  invoiceId: { header: 'Invoice #', text: (row) => String(row.invoiceId), min: 80, fallback: 88 },
  name: { header: 'Entity', text: (row) => row.name, min: 120, max: 320, fallback: 180 },
  date: { header: 'Date', samples: DATE_SAMPLES, min: 88, fallback: 104 },
  flow: { header: 'Flow', min: 64, fallback: 80 },
  amount: {
    header: 'Amount',
    samples: MONEY_SAMPLES,
    // An estimated invoice's sign takes room only on a page that shows one.
    text: (row) => (row.estimated ? `${ESTIMATED_SIGN} ${formatAmount(row.amount)}` : ''),
    min: 96,
    fallback: MONEY_COLUMN_WIDTH,
  },
  status: { header: 'Paid', min: 64, fallback: 80 },
  balance: { header: 'Balance', samples: MONEY_SAMPLES, min: 96, fallback: MONEY_COLUMN_WIDTH },
  category: { header: 'Category', text: (row) => categoryLabel(row.category), min: 100, max: 240, fallback: 170 },
  internal: { header: 'Internal', sortRoom: false, min: 76, fallback: 100 },
  archived: { header: 'Archived', sortRoom: false, min: 84, fallback: 110 },
  dueDate: { header: 'Due', samples: DATE_SAMPLES, bold: true, min: 88, fallback: 104 },
  estimate: { header: 'Estimate', samples: MONEY_SAMPLES, min: 96, fallback: MONEY_COLUMN_WIDTH },
  attachmentCount: { header: 'Files', sortRoom: false, min: 48, fallback: 56 },
};

/** The narrowest a user may drag a column. */
export const MIN_COLUMN_WIDTH = 48;

/**
 * The columns at their widths: the one the user dragged a column to (saved with the grid's other settings) wins,
 * else the width its content needs; Description fills what is left (at least 100 px).
 */
export function sizedInvoiceColumns(
  content: Readonly<Record<string, number>>,
  dragged: Readonly<Record<string, number>>,
): GridColDef<Entry>[] {
  return INVOICE_COLUMNS.map((column) => {
    const width = dragged[column.field];
    if (width !== undefined) return { ...column, width, flex: 0, minWidth: MIN_COLUMN_WIDTH };
    const needed = content[column.field];
    return needed === undefined ? column : { ...column, width: needed, minWidth: MIN_COLUMN_WIDTH };
  });
}

/** Columns a grid hides until the user shows them from the column chooser. */
export const HIDDEN_BY_DEFAULT: Readonly<Record<string, false>> = {
  dueDate: false,
  estimate: false,
  attachmentCount: false,
};

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
