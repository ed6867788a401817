import type { SortOrder } from '@billfold/contract/entries';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import type { SxProps, Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';

const NO_SORT = '';

export interface SortChoice<F extends string> {
  field: F;
  label: string;
}

/**
 * The sort of a list that stands in for a grid on phones (decision 0801): "Sort by" one of the grid's columns or
 * "Default", and a button that turns the direction (disabled while no column is chosen).
 */
export function SortPicker<F extends string>({
  choices,
  field,
  direction,
  width,
  onSort,
  sx,
}: {
  choices: readonly SortChoice<F>[];
  /** The sorted column; undefined for the default order. */
  field: F | undefined;
  direction: SortOrder;
  width: number;
  /** `null` for the default order. */
  onSort: (field: F | null, direction: SortOrder) => void;
  sx?: SxProps<Theme>;
}) {
  return (
    <Box sx={[{ display: 'flex', alignItems: 'center', gap: 0.5 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <TextField
        select
        size="small"
        label="Sort by"
        value={field ?? NO_SORT}
        onChange={(event) => onSort((event.target.value as F | typeof NO_SORT) || null, direction)}
        sx={{ width }}
      >
        <MenuItem value={NO_SORT}>Default</MenuItem>
        {choices.map((choice) => (
          <MenuItem key={choice.field} value={choice.field}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
      <IconButton
        aria-label={direction === 'asc' ? 'Ascending, change to descending' : 'Descending, change to ascending'}
        disabled={field === undefined}
        onClick={() => field !== undefined && onSort(field, direction === 'asc' ? 'desc' : 'asc')}
      >
        {direction === 'asc' ? <ArrowUpwardIcon /> : <ArrowDownwardIcon />}
      </IconButton>
    </Box>
  );
}
