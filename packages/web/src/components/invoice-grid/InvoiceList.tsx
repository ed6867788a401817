import type { Entry, SortOrder } from '@billfold/contract/entries';
import { formatAmount } from '@billfold/contract/money';
import AddIcon from '@mui/icons-material/Add';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { isOverdue } from '../DueDate.tsx';
import { GridAmount } from '../estimates.tsx';
import { ListPagination } from '../ListPagination.tsx';
import { ReadOnlyTip } from '../ledger-access.tsx';
import { SortPicker } from '../SortPicker.tsx';
import { visuallyHidden } from '../visually-hidden.ts';
import { INVOICE_COLUMNS } from './columns.tsx';
import type { InvoiceGridViewState } from './grid-state.ts';
import { GoToPageBox } from './InvoiceGridFooter.tsx';
import type { InvoiceGridActions } from './InvoiceGridToolbar.tsx';
import { FileCount, PAID_LABELS, PaidIcon, paidState } from './icons.tsx';

/** The sort choices: every column of the grid the server sorts by, by its title. */
const SORT_CHOICES = INVOICE_COLUMNS.filter((column) => column.sortable !== false).map((column) => ({
  field: column.field,
  label: column.headerName ?? '',
}));

export interface InvoiceListProps {
  label: string;
  entries: readonly Entry[] | undefined;
  /** -1 until the first answer. */
  total: number;
  loading: boolean;
  view: InvoiceGridViewState;
  pageSizeOptions: readonly number[];
  actions: InvoiceGridActions;
  onPage: (page: number, pageSize: number) => void;
  onSort: (field: string | null, sort: SortOrder) => void;
}

function InvoiceItem({ entry }: { entry: Entry }) {
  const state = paidState(entry);
  return (
    <Box
      component="li"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr) auto',
        columnGap: 2,
        rowGap: 0.25,
        px: 2,
        py: 1.25,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Typography sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        <Link component={RouterLink} to={`/entries/${entry.entryId}`} sx={{ fontWeight: 500 }}>
          Invoice #{entry.invoiceId}
        </Link>
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {' · '}
        </Box>
        <Link component={RouterLink} to={`/entities/${entry.billId}`}>
          {entry.name}
        </Link>
      </Typography>
      <Typography sx={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
        <Box component="span" sx={visuallyHidden}>
          Amount{' '}
        </Box>
        <GridAmount entry={entry} />
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        component="div"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
      >
        <span>{entry.date.slice(0, 10)}</span>
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          {/* The icon's name and the word would be read twice; the word alone is read. */}
          <Box component="span" aria-hidden sx={{ display: 'inline-flex' }}>
            <PaidIcon entry={entry} />
          </Box>
          {PAID_LABELS[state]}
        </Box>
        {(entry.attachmentCount ?? 0) > 0 && <FileCount count={entry.attachmentCount ?? 0} />}
        {entry.dueDate && !entry.status && (
          <Box component="span" sx={isOverdue(entry) ? { color: 'error.main', fontWeight: 500 } : undefined}>
            {isOverdue(entry) ? `Overdue, due ${entry.dueDate}` : `Due ${entry.dueDate}`}
          </Box>
        )}
      </Typography>
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
      >
        Balance {formatAmount(entry.balance.totalBalance)}
      </Typography>
    </Box>
  );
}

/**
 * The invoice list of phones and small tablets (decision 0801): the grid's rows as a readable list of invoice
 * number, entity, date, amount, balance and paid state, with the grid's paging, page sizes and server-side sort.
 */
export function InvoiceList({
  label,
  entries,
  total,
  loading,
  view,
  pageSizeOptions,
  actions,
  onPage,
  onSort,
}: InvoiceListProps) {
  const sort = view.sortModel[0];
  const direction: SortOrder = sort?.sort ?? 'asc';
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 1.5, alignItems: 'center' }}>
        <ReadOnlyTip reason={actions.newInvoiceReason ?? null}>
          <Button
            component={RouterLink}
            to={actions.newInvoiceHref}
            variant="contained"
            size="small"
            startIcon={<AddIcon />}
            disabled={actions.newInvoiceDisabled ?? false}
            aria-disabled={actions.newInvoiceDisabled || undefined}
          >
            New Invoice
          </Button>
        </ReadOnlyTip>
        <Button
          size="small"
          startIcon={<FileDownloadIcon />}
          disabled={actions.exporting}
          onClick={() => actions.onExport()}
        >
          {actions.exporting ? 'Exporting…' : 'Export CSV'}
        </Button>
        {/* At the right end when it fits beside the buttons; wrapped onto its own line, at the left like them. */}
        <SortPicker
          choices={SORT_CHOICES}
          field={sort?.field}
          direction={direction}
          width={150}
          onSort={onSort}
          sx={{ ml: { xs: 0, sm: 'auto' } }}
        />
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label="Loading invoices" />}</Box>
      {entries && entries.length > 0 ? (
        <Box component="ul" aria-label={label} aria-busy={loading} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {entries.map((entry) => (
            <InvoiceItem key={entry.entryId} entry={entry} />
          ))}
        </Box>
      ) : (
        <Typography role="status" color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {entries ? 'No invoices found.' : 'Loading…'}
        </Typography>
      )}
      <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
        <GoToPageBox
          page={view.page}
          pageCount={total >= 0 ? Math.ceil(total / view.pageSize) : 0}
          known={total >= 0}
          onPage={(page) => onPage(page, view.pageSize)}
        />
      </Box>
      <ListPagination
        total={total}
        page={view.page}
        pageSize={view.pageSize}
        pageSizeOptions={pageSizeOptions}
        onPage={onPage}
      />
    </Paper>
  );
}
