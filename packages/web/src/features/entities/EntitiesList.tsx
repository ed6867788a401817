import { BILL_SORT_FIELDS, type BillOverview, type BillSortField } from '@billfold/contract/bills';
import { categoryLabel } from '@billfold/contract/categories';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { DueDate } from '../../components/DueDate.tsx';
import { EntityRowActions, type EntityRowsProps, openBalanceLines, scheduleLine } from './entity-actions.tsx';

/** The grid's sortable columns, by their titles. */
const SORT_LABELS: Record<BillSortField, string> = {
  name: 'Name',
  category: 'Category',
  invoices: 'Invoices',
  balance: 'Open Balance',
  nextDue: 'Next Due',
};
const NO_SORT = '';

function EntityItem({ bill, actions }: { bill: BillOverview; actions: EntityRowsProps['actions'] }) {
  return (
    <Box component="li" sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', columnGap: 2, rowGap: 0.5 }}>
        <Typography sx={{ minWidth: 0, overflowWrap: 'anywhere', fontWeight: 500 }}>
          <Link component={RouterLink} to={`/entities/${bill.id}`}>
            {bill.name}
          </Link>
        </Typography>
        <Box sx={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
          {openBalanceLines(bill).map((line) => (
            <Typography key={line} variant="body2">
              {line}
            </Typography>
          ))}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', gridColumn: '1 / -1' }}>
          <Chip label={categoryLabel(bill.category)} size="small" />
          {bill.status === 0 && <Chip label="Archived" size="small" color="warning" variant="outlined" />}
          <Typography variant="body2" color="text.secondary">
            {bill.invoiceCount === 1 ? '1 invoice' : `${bill.invoiceCount} invoices`}
          </Typography>
          {bill.nextDueDate && (
            <Typography variant="body2" color="text.secondary" component="span">
              Next due <DueDate entry={{ dueDate: bill.nextDueDate, status: false }} dense />
            </Typography>
          )}
        </Box>
        {bill.schedules.length > 0 && (
          <Box component="ul" sx={{ gridColumn: '1 / -1', m: 0, pl: 2.5, color: 'text.secondary' }}>
            {bill.schedules.map((schedule) => (
              <Typography component="li" variant="body2" key={schedule.id}>
                {scheduleLine(schedule)}
              </Typography>
            ))}
          </Box>
        )}
        <Box sx={{ gridColumn: '1 / -1' }}>
          <EntityRowActions bill={bill} actions={actions} />
        </Box>
      </Box>
    </Box>
  );
}

/**
 * The Entities page on phones and small tablets (decision 0801): each entity as a readable item with its actions,
 * and the grid's sort, paging and page sizes.
 */
export function EntitiesList({
  rows,
  total,
  loading,
  view,
  pageSizeOptions,
  actions,
  onPage,
  onSort,
}: EntityRowsProps) {
  const sort = view.sortModel[0];
  const direction = sort?.sort ?? 'asc';
  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <Box sx={{ display: 'flex', gap: 0.5, p: 1.5, alignItems: 'center', justifyContent: 'flex-end' }}>
        <TextField
          select
          size="small"
          label="Sort by"
          value={sort?.field ?? NO_SORT}
          onChange={(event) => {
            const field = event.target.value as BillSortField | '';
            onSort(field ? [{ field, sort: direction }] : []);
          }}
          sx={{ width: 170 }}
        >
          <MenuItem value={NO_SORT}>Default</MenuItem>
          {BILL_SORT_FIELDS.map((field) => (
            <MenuItem key={field} value={field}>
              {SORT_LABELS[field]}
            </MenuItem>
          ))}
        </TextField>
        <IconButton
          aria-label={direction === 'asc' ? 'Ascending, change to descending' : 'Descending, change to ascending'}
          disabled={!sort}
          onClick={() => sort && onSort([{ field: sort.field, sort: direction === 'asc' ? 'desc' : 'asc' }])}
        >
          {direction === 'asc' ? <ArrowUpwardIcon /> : <ArrowDownwardIcon />}
        </IconButton>
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label="Loading entities" />}</Box>
      {rows && rows.length > 0 ? (
        <Box component="ul" aria-label="Entities" aria-busy={loading} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {rows.map((bill) => (
            <EntityItem key={bill.id} bill={bill} actions={actions} />
          ))}
        </Box>
      ) : (
        <Typography role="status" color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
          {rows ? 'No entities found.' : 'Loading…'}
        </Typography>
      )}
      <TablePagination
        component="div"
        count={total}
        page={view.page}
        rowsPerPage={view.pageSize}
        rowsPerPageOptions={[...pageSizeOptions]}
        onPageChange={(_event, page) => onPage(page, view.pageSize)}
        onRowsPerPageChange={(event) => onPage(0, Number(event.target.value))}
        sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 1 } }}
      />
    </Paper>
  );
}
