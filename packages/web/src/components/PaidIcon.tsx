import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import HourglassTop from '@mui/icons-material/HourglassTop';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';
import { PAID_STATE_LABELS, type PaidState } from '../lib/invoice-status.ts';

/**
 * The Paid icon of the grid and the invoice page: a green tick when paid (with a `+` marker when overpaid), an
 * amber hourglass when partly paid (`In Progress`), a red cross when unpaid. Its accessible name is the state.
 */
export function PaidIcon({ state }: { state: PaidState }) {
  const label = PAID_STATE_LABELS[state];
  let icon: ReactNode;
  if (state === 'paid') icon = <CheckCircle color="success" titleAccess={label} />;
  else if (state === 'overpaid')
    icon = (
      <Box component="span" sx={{ position: 'relative', display: 'inline-flex' }}>
        <CheckCircle color="success" titleAccess={label} />
        <Box
          component="span"
          aria-hidden
          sx={{
            position: 'absolute',
            top: -6,
            right: -8,
            fontSize: 12,
            fontWeight: 700,
            lineHeight: 1,
            color: 'warning.dark',
          }}
        >
          +
        </Box>
      </Box>
    );
  else if (state === 'partial') icon = <HourglassTop color="warning" titleAccess={label} />;
  else icon = <Cancel color="error" titleAccess={label} />;
  return (
    <Tooltip title={label}>
      <Box component="span" sx={{ display: 'inline-flex', verticalAlign: 'middle' }} data-paid-state={state}>
        {icon}
      </Box>
    </Tooltip>
  );
}
