import type { Entry, EntryList } from '@billfold/contract/entries';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  DataGrid,
  type GridColumnVisibilityModel,
  type GridPaginationModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useExportInvoices } from '../../api/invoices/export-invoices.ts';
import { type EntryFilterParams, toEntryQuery, useInvoices } from '../../api/invoices/list-invoices.ts';
import { useContentWidths } from '../column-widths.ts';
import { useLedgerAccess } from '../ledger-access.tsx';
import { useNotice } from '../notices.tsx';
import { INVOICE_COLUMN_CONTENT, sizedInvoiceColumns } from './columns.tsx';
import {
  HOME_DEFAULT_PAGE_SIZE,
  HOME_PAGE_SIZES,
  type InvoiceGridStore,
  type InvoiceGridViewState,
  memoryGridStore,
  type SortItem,
  sanitizeViewState,
  toSortParams,
} from './grid-state.ts';
import { InvoiceGridFooter } from './InvoiceGridFooter.tsx';
import { type InvoiceGridActions, InvoiceGridActionsContext, InvoiceGridToolbar } from './InvoiceGridToolbar.tsx';
import { InvoiceList } from './InvoiceList.tsx';

const NO_INVOICES: EntryList = { entries: [], total: 0 };

export interface InvoiceGridProps {
  /** Server-side filters for the list and the CSV export: the home filter panel's, or one entity's `partyList`. */
  filters: EntryFilterParams;
  /** Rows-a-page choices (docs/product.md, Timings and limits: home 5/10/25/50/100, entity page 2/5/10/25/50/100); at most 100. */
  pageSizeOptions?: readonly number[];
  /** Initial rows a page when nothing is saved (home 100, entity page 10). */
  defaultPageSize?: number;
  /**
   * Where page, page size, sort, column visibility and dragged column widths are kept: `homeGridStore` (session storage, the keys logout
   * clears) on the home page; by default only in memory. Read once, when the grid mounts.
   */
  store?: InvoiceGridStore;
  /** Target of the toolbar's New Invoice button (default `/invoice`). */
  newInvoiceHref?: string;
  /** Disables New Invoice (an archived entity's page). */
  newInvoiceDisabled?: boolean;
  /** Accessible name of the grid. */
  label?: string;
  /** Changing this value returns to the first page, as a change of `filters` does (e.g. after Clear Filters). */
  pageResetKey?: string | number;
}

/** The grid shows from 900 px up (narrower screens get `InvoiceList`), so it no longer needs a shorter small-screen size. */
const GRID_HEIGHT = 600;

/**
 * The invoice grid (docs/product.md, Home (/home)): server-side paging and sorting, the 11 columns sized from what they
 * show and resizable (decision 0604), New Invoice, column and density choosers, Export CSV and the Go-to-page box. Changing `filters` returns to the first page.
 */
export function InvoiceGrid({
  filters,
  pageSizeOptions = HOME_PAGE_SIZES,
  defaultPageSize = HOME_DEFAULT_PAGE_SIZE,
  store,
  newInvoiceHref = '/invoice',
  newInvoiceDisabled = false,
  label = 'Invoices',
  pageResetKey,
}: InvoiceGridProps) {
  const theme = useTheme();
  // Phones and small tablets get a list instead of the 11-column grid (decision 0801).
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const notify = useNotice();
  const storeRef = useRef<InvoiceGridStore>(store ?? memoryGridStore());
  const [view, setView] = useState<InvoiceGridViewState>(() =>
    sanitizeViewState(storeRef.current.load(), pageSizeOptions, defaultPageSize),
  );

  // New filters start again at the first page; adjusted while rendering so no request goes out for the old page.
  const filterKey = JSON.stringify([toEntryQuery(filters), pageResetKey ?? null]);
  const [shownFilterKey, setShownFilterKey] = useState(filterKey);
  if (shownFilterKey !== filterKey) {
    setShownFilterKey(filterKey);
    if (view.page !== 0) setView({ ...view, page: 0 });
  }

  useEffect(() => {
    storeRef.current.save(view);
  }, [view]);

  const sort = toSortParams(view.sortModel);
  const invoices = useInvoices({ ...filters, ...sort, pageNum: view.page, pageSize: view.pageSize });
  // A page that could not be loaded shows as no invoices (docs/product.md, Calls and failures).
  const data = invoices.isError ? NO_INVOICES : invoices.data;
  const isFetching = invoices.isFetching;
  const rows = data?.entries ?? NO_INVOICES.entries;
  const contentWidths = useContentWidths(rows, INVOICE_COLUMN_CONTENT);
  const columns = useMemo(
    () => sizedInvoiceColumns(contentWidths, view.columnWidths),
    [contentWidths, view.columnWidths],
  );

  const { mutate: exportCsv, isPending: exporting } = useExportInvoices();
  // A viewer's New Invoice is disabled with the reason (docs/decisions/0303-web-ledgers.md).
  const { readOnlyReason } = useLedgerAccess();
  const actions: InvoiceGridActions = {
    newInvoiceHref,
    newInvoiceDisabled: newInvoiceDisabled || readOnlyReason !== null,
    newInvoiceReason: readOnlyReason,
    exporting,
    onExport: () =>
      exportCsv(
        { ...filters, ...sort },
        {
          onSuccess: (outcome) => {
            if (!outcome.ok) notify('Export failed. Please try again.', { severity: 'error' });
          },
        },
      ),
  };

  const paginationModel: GridPaginationModel = { page: view.page, pageSize: view.pageSize };
  // -1 (unknown) until the first answer, so a restored page is not clamped to an empty grid's first page.
  const rowCount = data ? data.total : -1;

  const setPage = (page: number, pageSize: number) =>
    setView((current) => ({
      ...current,
      // A new page size starts again at the first page.
      page: pageSize === current.pageSize ? page : 0,
      pageSize,
    }));
  const setSort = (sortModel: SortItem[]) => setView((current) => ({ ...current, page: 0, sortModel }));

  if (narrow) {
    return (
      <InvoiceList
        label={label}
        entries={data?.entries}
        total={rowCount}
        loading={isFetching}
        view={view}
        pageSizeOptions={pageSizeOptions}
        actions={actions}
        onPage={setPage}
        onSort={(field, sort) => setSort(field ? [{ field, sort }] : [])}
      />
    );
  }

  return (
    <InvoiceGridActionsContext.Provider value={actions}>
      <Box sx={{ height: GRID_HEIGHT, width: '100%' }}>
        <DataGrid<Entry>
          label={label}
          rows={rows}
          columns={columns}
          getRowId={(row) => row.entryId}
          loading={isFetching}
          rowCount={rowCount}
          paginationMode="server"
          sortingMode="server"
          paginationModel={paginationModel}
          onPaginationModelChange={(model) => setPage(model.page, model.pageSize)}
          pageSizeOptions={[...pageSizeOptions]}
          sortModel={view.sortModel as GridSortModel}
          onSortModelChange={(model) =>
            setSort(model.flatMap((item): SortItem[] => (item.sort ? [{ field: item.field, sort: item.sort }] : [])))
          }
          columnVisibilityModel={view.columnVisibility as GridColumnVisibilityModel}
          onColumnVisibilityModelChange={(model) =>
            setView((current) => ({ ...current, columnVisibility: { ...model } }))
          }
          onColumnWidthChange={({ colDef, width }) =>
            setView((current) => ({
              ...current,
              columnWidths: { ...current.columnWidths, [colDef.field]: Math.round(width) },
            }))
          }
          disableColumnFilter
          disableRowSelectionOnClick
          showToolbar
          slots={{ toolbar: InvoiceGridToolbar, footer: InvoiceGridFooter }}
          localeText={{ noRowsLabel: 'No invoices found.' }}
          sx={{ bgcolor: 'background.paper' }}
        />
      </Box>
    </InvoiceGridActionsContext.Provider>
  );
}
