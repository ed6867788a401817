import Paper from '@mui/material/Paper';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * A filter panel (docs/product.md, Filter panel): the page's "Filters" search landmark, a form whose Enter or
 * Search button runs `onSearch`.
 */
export function FilterForm({
  onSearch,
  sx,
  children,
}: {
  onSearch: () => void;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Paper
      component="form"
      role="search"
      aria-label="Filters"
      variant="outlined"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch();
      }}
      sx={sx}
    >
      {children}
    </Paper>
  );
}
