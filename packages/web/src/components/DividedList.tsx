import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

interface Props {
  /** `ol` when the order means something (a history, newest first); `ul` otherwise. */
  ordered?: boolean;
  /** The list's accessible name, when the heading above it does not already give one. */
  label?: string;
  children: ReactNode;
}

/**
 * A bare list whose items are separated by the theme's divider line: the app's one look for short lists of
 * rows (ledgers, members, invitations, API tokens, own categories, changes in a history).
 */
export function DividedList({ ordered = false, label, children }: Props) {
  return (
    <Box
      component={ordered ? 'ol' : 'ul'}
      aria-label={label}
      sx={{ m: 0, p: 0, listStyle: 'none', '& > li + li': { borderTop: 1, borderColor: 'divider' } }}
    >
      {children}
    </Box>
  );
}
