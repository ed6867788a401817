import type { Entry } from '@billfold/contract/entries';
import { centsOf, formatAmount, fromCents } from '@billfold/contract/money';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { visuallyHidden } from './visually-hidden.ts';

/** What an estimated invoice's mark says, on screen and to screen readers (docs/decisions/0212-estimated-amounts.md). */
export const ESTIMATED_TITLE = 'Estimated: the schedule’s estimate, not confirmed yet';

/** The grid's sign before an estimated amount; the amount columns leave room for it. */
export const ESTIMATED_SIGN = '≈';

/** An amount as the grid and the phone list show it: an estimated invoice's with the sign before it and the mark's title. */
export function GridAmount({ entry }: { entry: Pick<Entry, 'amount' | 'estimated'> }) {
  if (!entry.estimated) return formatAmount(entry.amount);
  return (
    <Box component="span" title={ESTIMATED_TITLE} sx={{ fontStyle: 'italic' }}>
      <span aria-hidden="true">{ESTIMATED_SIGN} </span>
      {formatAmount(entry.amount)}
      <Box component="span" sx={visuallyHidden}>
        {' '}
        (estimated)
      </Box>
    </Box>
  );
}

/** The invoice page's mark beside an estimated amount. */
export function EstimatedChip() {
  return <Chip size="small" color="info" variant="outlined" label="Estimated" title={ESTIMATED_TITLE} />;
}

/**
 * The confirmed amount against its estimate: `+24.99 more than estimated`, `3.00 less than estimated` or `as
 * estimated`, from exact cents.
 */
export function estimateDifference(entry: Pick<Entry, 'amount' | 'estimate'>): string | null {
  if (entry.estimate === null) return null;
  const cents = centsOf(entry.amount) - centsOf(entry.estimate);
  if (cents === 0) return 'As estimated';
  const amount = formatAmount(fromCents(Math.abs(cents)));
  return cents > 0 ? `${amount} more than estimated` : `${amount} less than estimated`;
}
