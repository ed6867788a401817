import SwapHoriz from '@mui/icons-material/SwapHoriz';
import TrendingDown from '@mui/icons-material/TrendingDown';
import TrendingUp from '@mui/icons-material/TrendingUp';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { FLOW_LABELS, type FlowKind } from '../lib/invoice-status.ts';

/** The Flow icon: income (green, up), expense (red, down) or internal (grey, both ways); named by its label. */
export function FlowIcon({ flow }: { flow: FlowKind }) {
  const label = FLOW_LABELS[flow];
  const icon =
    flow === 'income' ? (
      <TrendingUp color="success" titleAccess={label} />
    ) : flow === 'expense' ? (
      <TrendingDown color="error" titleAccess={label} />
    ) : (
      <SwapHoriz color="action" titleAccess={label} />
    );
  return (
    <Tooltip title={label}>
      <Box component="span" sx={{ display: 'inline-flex', verticalAlign: 'middle' }} data-flow={flow}>
        {icon}
      </Box>
    </Tooltip>
  );
}
