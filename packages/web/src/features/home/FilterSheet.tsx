import CloseIcon from '@mui/icons-material/Close';
import FilterListIcon from '@mui/icons-material/FilterList';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { FilterPanel } from './FilterPanel.tsx';
import { activeFilterCount, hasErrors } from './filter-model.ts';
import type { HomeFilters } from './use-home-filters.ts';

/**
 * Phones and small tablets (decision 0801): the filter panel folds into a sheet from the bottom, behind a Filters
 * button that says how many filters are active. Search applies and closes the sheet; changes also apply by
 * themselves after the usual pause, as on the desktop.
 */
export function FilterSheet({ filters }: { filters: HomeFilters }) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const count = activeFilterCount(filters.draft);
  const inSheet: HomeFilters = {
    ...filters,
    search: () => {
      if (hasErrors(filters.errors)) return;
      filters.search();
      setOpen(false);
    },
  };
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Button
          variant="outlined"
          startIcon={<FilterListIcon />}
          onClick={() => setOpen(true)}
          aria-haspopup="dialog"
          // The name starts with what the button shows ("Filters", then the count when there is one), so speech
          // users can say what they see (WCAG 2.5.3); a hidden 0 badge would be read as visible text.
          aria-label={count === 0 ? 'Filters, none active' : `Filters ${count} active`}
          endIcon={
            count > 0 ? (
              <Badge
                badgeContent={count}
                color="primary"
                sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
              />
            ) : undefined
          }
        >
          {/* The space keeps "Filters" and the count apart in the visible text, so it stays part of the name (axe: label-content-name-mismatch). */}
          {'Filters '}
        </Button>
        <Button variant="text" onClick={filters.clear} disabled={count === 0}>
          Clear Filters
        </Button>
      </Box>
      <Drawer
        anchor="bottom"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-modal': true,
            'aria-labelledby': titleId,
            sx: { maxHeight: '92vh', borderTopLeftRadius: 12, borderTopRightRadius: 12 },
          },
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1.5 }}>
          <Typography id={titleId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            Filters
          </Typography>
          <IconButton aria-label="Close filters" onClick={() => setOpen(false)} edge="end">
            <CloseIcon />
          </IconButton>
        </Box>
        <Box sx={{ p: { xs: 1, sm: 2 }, overflowY: 'auto' }}>
          <FilterPanel filters={inSheet} />
        </Box>
      </Drawer>
    </>
  );
}
