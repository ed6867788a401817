import type { Entry } from '@billfold/contract/entries';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { todayIso } from '../lib/dates.ts';

/** Unpaid and due before the user's today. */
export function isOverdue(entry: Pick<Entry, 'dueDate' | 'status'>, today = todayIso()): boolean {
  return entry.dueDate !== null && entry.dueDate !== undefined && !entry.status && entry.dueDate < today;
}

/** An invoice's due date, with "Overdue" while it is unpaid past it; a dash without one. */
export function DueDate({ entry, dense = false }: { entry: Pick<Entry, 'dueDate' | 'status'>; dense?: boolean }) {
  if (!entry.dueDate)
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        —
      </Box>
    );
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <span>{entry.dueDate}</span>
      {isOverdue(entry) && (
        <Chip label="Overdue" color="error" size="small" variant="outlined" sx={dense ? { height: 20 } : undefined} />
      )}
    </Box>
  );
}
