import type { Entry, EntryFilters } from '@billfold/contract/entries';
import AddCircleIcon from '@mui/icons-material/AddCircle';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import HourglassBottomIcon from '@mui/icons-material/HourglassBottom';
import NorthEastIcon from '@mui/icons-material/NorthEast';
import SouthWestIcon from '@mui/icons-material/SouthWest';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { visuallyHidden } from '../visually-hidden.ts';

export type PaidState = 'paid' | 'overpaid' | 'inProgress' | 'unpaid';

export const PAID_LABELS: Record<PaidState, string> = {
  paid: 'Paid',
  overpaid: 'Overpaid',
  inProgress: 'In Progress',
  unpaid: 'Unpaid',
};

/**
 * Paid (docs/product.md, Invoice): with an overpaid marker if overpaid; unpaid with an In Progress marker when the balance is partial
 * (above 0 and below the amount); otherwise unpaid.
 */
export function paidState(entry: Pick<Entry, 'status' | 'overpaid' | 'amount' | 'balance'>): PaidState {
  if (entry.status) return entry.overpaid ? 'overpaid' : 'paid';
  const balance = entry.balance.totalBalance;
  return balance > 0 && balance < entry.amount ? 'inProgress' : 'unpaid';
}

/** How an invoice's money moves, in the words of the list filter (`flow=`). */
export type FlowKind = NonNullable<EntryFilters['flow']>;

export const FLOW_LABELS: Record<FlowKind, string> = { income: 'Income', expense: 'Expense', internal: 'Internal' };

/** Internal entities' invoices are internal whatever their stored flow; otherwise INCOMING is income. */
export function flowKind(entry: Pick<Entry, 'flow' | 'internal'>): FlowKind {
  if (entry.internal) return 'internal';
  return entry.flow === 'INCOMING' ? 'income' : 'expense';
}

/** The paid state as an icon with a tooltip; the label is also its accessible name. */
export function PaidIcon({ entry }: { entry: Pick<Entry, 'status' | 'overpaid' | 'amount' | 'balance'> }) {
  const state = paidState(entry);
  const label = PAID_LABELS[state];
  return (
    <Tooltip title={label}>
      <Box component="span" role="img" aria-label={label} sx={{ display: 'inline-flex', position: 'relative' }}>
        {state === 'paid' && <CheckCircleIcon color="success" fontSize="small" />}
        {state === 'overpaid' && (
          <>
            <CheckCircleIcon color="success" fontSize="small" />
            <AddCircleIcon
              color="info"
              sx={{
                fontSize: 11,
                position: 'absolute',
                right: -5,
                top: -4,
                bgcolor: 'background.paper',
                borderRadius: '50%',
              }}
            />
          </>
        )}
        {state === 'inProgress' && <HourglassBottomIcon color="warning" fontSize="small" />}
        {state === 'unpaid' && <HighlightOffIcon color="error" fontSize="small" />}
      </Box>
    </Tooltip>
  );
}

/** Income, expense or internal as an icon with a tooltip. */
export function FlowIcon({ entry }: { entry: Pick<Entry, 'flow' | 'internal'> }) {
  const kind = flowKind(entry);
  const label = FLOW_LABELS[kind];
  return (
    <Tooltip title={label}>
      <Box component="span" role="img" aria-label={label} sx={{ display: 'inline-flex' }}>
        {kind === 'income' && <SouthWestIcon color="success" fontSize="small" />}
        {kind === 'expense' && <NorthEastIcon color="error" fontSize="small" />}
        {kind === 'internal' && <SwapHorizIcon color="action" fontSize="small" />}
      </Box>
    </Tooltip>
  );
}

/** "1 file", "3 files": the words a screen reader reads for the paperclip. */
export const fileCountLabel = (count: number) => (count === 1 ? '1 file' : `${count} files`);

/**
 * The paperclip of the Files column and the phone list (docs/decisions/1143-attachment-count-and-filter.md): the
 * files attached to the invoice and to its live payments. Read as "2 files"; no files shows nothing but is read as
 * "No files", so the cell is never silent.
 */
export function FileCount({ count }: { count: number }) {
  if (count === 0)
    return (
      <Box component="span" sx={visuallyHidden}>
        No files
      </Box>
    );
  return (
    <Box
      component="span"
      title={fileCountLabel(count)}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.25 }}
    >
      <AttachFileIcon fontSize="small" aria-hidden sx={{ color: 'text.secondary' }} />
      <span aria-hidden>{count}</span>
      <Box component="span" sx={visuallyHidden}>
        {fileCountLabel(count)}
      </Box>
    </Box>
  );
}
