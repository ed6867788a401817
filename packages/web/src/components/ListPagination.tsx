import TablePagination from '@mui/material/TablePagination';

/**
 * The paging of a list that stands in for a grid on phones (decision 0801): the grid's page sizes and arrows.
 * Wrapped on a phone, the page arrows start their line at the same edge (no margin of their own).
 */
export function ListPagination({
  total,
  page,
  pageSize,
  pageSizeOptions,
  onPage,
}: {
  total: number;
  page: number;
  pageSize: number;
  pageSizeOptions: readonly number[];
  onPage: (page: number, pageSize: number) => void;
}) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[...pageSizeOptions]}
      onPageChange={(_event, next) => onPage(next, pageSize)}
      onRowsPerPageChange={(event) => onPage(0, Number(event.target.value))}
      sx={{
        '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', px: 1, columnGap: 1 },
        '& .MuiTablePagination-toolbar .MuiTablePagination-actions': { ml: 0 },
      }}
    />
  );
}
