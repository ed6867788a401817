import { BILL_SORT_FIELDS, type BillOverview, type BillSortField } from '@billfold/contract/bills';
import { categoryLabel } from '@billfold/contract/categories';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { DueDate } from '../../components/DueDate.tsx';
import { ListPagination } from '../../components/ListPagination.tsx';
import { SortPicker } from '../../components/SortPicker.tsx';
import { countOf } from '../../lib/format.ts';
import { EntityRowActions, type EntityRowsProps, openBalanceLines, scheduleLine } from './entity-actions.tsx';

/** The grid's sortable columns, by their titles. */
const SORT_LABELS: Record<BillSortField, string> = {
  name: 'Name',
  category: 'Category',
  invoices: 'Invoices',
  balance: 'Open Balance',
  nextDue: 'Next Due',
};
const SORT_CHOICES = BILL_SORT_FIELDS.map((field) => ({ field, label: SORT_LABELS[field] }));

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
            {countOf(bill.invoiceCount, 'invoice', 'invoices')}
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
      <SortPicker
        choices={SORT_CHOICES}
        field={sort?.field}
        direction={direction}
        width={170}
        onSort={(field, order) => onSort(field ? [{ field, sort: order }] : [])}
        sx={{ p: 1.5, justifyContent: 'flex-end' }}
      />
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
