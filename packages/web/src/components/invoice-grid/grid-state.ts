import { SORT_ALIASES, SORT_FIELDS, type SortField, type SortOrder } from '@billfold/contract/entries';
import { INHERITED_KEYS, ownValue } from '@billfold/contract/own-keys';
import type { EntrySortParams } from '../../api/invoices/list-invoices.ts';
import { isRecord, savedPage, savedSortModel } from '../../lib/saved-view.ts';
import { readSetting, VIEW_KEYS, writeSetting } from '../../lib/session.ts';
import { HIDDEN_BY_DEFAULT, MIN_COLUMN_WIDTH } from './columns.tsx';

/** A dragged width past this is a slip (or a forged setting), not a choice. */
const MAX_COLUMN_WIDTH = 2000;

/** The home grid (docs/product.md, Timings and limits) offers 5, 10, 25, 50 and 100 rows a page, 100 by default; never more than 100. */
export const HOME_PAGE_SIZES = [5, 10, 25, 50, 100] as const;
export const HOME_DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;

export interface SortItem {
  field: string;
  sort: SortOrder;
}

/** What the grid remembers between visits: the page (0-based), rows a page, sort, hidden columns and their widths. */
export interface InvoiceGridViewState {
  page: number;
  pageSize: number;
  sortModel: SortItem[];
  /** Column field → visible; a missing field is visible unless `HIDDEN_BY_DEFAULT` hides it. */
  columnVisibility: Record<string, boolean>;
  /** Column field → the width (px) the user dragged it to; a missing field is sized from its content. */
  columnWidths: Record<string, number>;
}

/** Where a grid keeps its view state. The home page uses session storage; other pages may keep it in memory. */
export interface InvoiceGridStore {
  load(): Partial<InvoiceGridViewState>;
  save(state: InvoiceGridViewState): void;
}

/** The home page's saved grid settings (docs/product.md, Saved view settings), under the `VIEW_KEYS` that logout clears. */
export const homeGridStore: InvoiceGridStore = {
  load: () => ({
    page: readSetting<unknown>(VIEW_KEYS.page, undefined) as number,
    pageSize: readSetting<unknown>(VIEW_KEYS.pageSize, undefined) as number,
    sortModel: readSetting<unknown>(VIEW_KEYS.sortModel, undefined) as SortItem[],
    columnVisibility: readSetting<unknown>(VIEW_KEYS.columnVisibility, undefined) as Record<string, boolean>,
    columnWidths: readSetting<unknown>(VIEW_KEYS.columnWidths, undefined) as Record<string, number>,
  }),
  save: (state) => {
    writeSetting(VIEW_KEYS.page, state.page);
    writeSetting(VIEW_KEYS.pageSize, state.pageSize);
    writeSetting(VIEW_KEYS.sortModel, state.sortModel);
    writeSetting(VIEW_KEYS.columnVisibility, state.columnVisibility);
    writeSetting(VIEW_KEYS.columnWidths, state.columnWidths);
  },
};

/** A grid whose state lives only as long as the page (e.g. one entity's invoices). */
export function memoryGridStore(initial: Partial<InvoiceGridViewState> = {}): InvoiceGridStore {
  let state: Partial<InvoiceGridViewState> = initial;
  return {
    load: () => state,
    save: (next) => {
      state = next;
    },
  };
}

const isSortColumn = (field: unknown): field is string => typeof field === 'string' && toSortField(field) !== null;

/** The server's sort field for a grid column, or null when the column cannot be sorted on the server. */
export function toSortField(field: string): SortField | null {
  const name = ownValue(SORT_ALIASES, field) ?? field;
  return (SORT_FIELDS as readonly string[]).includes(name) ? (name as SortField) : null;
}

/** The grid's sort model as `sortField`/`sortOrder` (only the first item counts; none → the server's default). */
export function toSortParams(sortModel: readonly SortItem[]): EntrySortParams {
  const first = sortModel[0];
  const sortField = first ? toSortField(first.field) : null;
  if (!first || !sortField) return {};
  return { sortField, sortOrder: first.sort };
}

/**
 * Restored state is untrusted text from session storage: anything malformed falls back to the default, a page
 * size outside the offered sizes becomes the default, sort items name server-sortable fields only, and a column
 * width is a whole number of pixels a user could have dragged to.
 */
export function sanitizeViewState(
  saved: Partial<Record<keyof InvoiceGridViewState, unknown>>,
  pageSizes: readonly number[],
  defaultPageSize: number,
): InvoiceGridViewState {
  const pageSize =
    typeof saved.pageSize === 'number' && pageSizes.includes(saved.pageSize) && saved.pageSize <= MAX_PAGE_SIZE
      ? saved.pageSize
      : defaultPageSize;
  const page = savedPage(saved.page);
  const sortModel: SortItem[] = savedSortModel(saved.sortModel, isSortColumn);
  const columnVisibility: Record<string, boolean> = { ...HIDDEN_BY_DEFAULT };
  if (isRecord(saved.columnVisibility)) {
    for (const [field, visible] of Object.entries(saved.columnVisibility)) {
      // A stored `__proto__` key would set the object's prototype, not hide a column (docs/security.md, Safe lookups).
      if (typeof visible === 'boolean' && !INHERITED_KEYS.includes(field)) columnVisibility[field] = visible;
    }
  }
  const columnWidths: Record<string, number> = {};
  if (isRecord(saved.columnWidths)) {
    for (const [field, width] of Object.entries(saved.columnWidths)) {
      if (typeof width === 'number' && Number.isFinite(width) && width >= MIN_COLUMN_WIDTH && width <= MAX_COLUMN_WIDTH)
        columnWidths[field] = Math.round(width);
    }
  }
  return { page, pageSize, sortModel, columnVisibility, columnWidths };
}
