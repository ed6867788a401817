import { SORT_ALIASES, SORT_FIELDS, type SortField, type SortOrder } from '@billfold/contract/entries';
import { INHERITED_KEYS, ownValue } from '@billfold/contract/own-keys';
import type { EntrySortParams } from '../../api/invoices/list-invoices.ts';
import { readSetting, VIEW_KEYS, writeSetting } from '../../lib/session.ts';
import { HIDDEN_BY_DEFAULT } from './columns.tsx';

/** The home grid (docs/product.md, Timings and limits) offers 5, 10, 25, 50 and 100 rows a page, 100 by default; never more than 100. */
export const HOME_PAGE_SIZES = [5, 10, 25, 50, 100] as const;
export const HOME_DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;

export interface SortItem {
  field: string;
  sort: SortOrder;
}

/** What the grid remembers between visits: the page (0-based), rows a page, sort and hidden columns. */
export interface InvoiceGridViewState {
  page: number;
  pageSize: number;
  sortModel: SortItem[];
  /** Column field → visible; a missing field is visible unless `HIDDEN_BY_DEFAULT` hides it. */
  columnVisibility: Record<string, boolean>;
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
  }),
  save: (state) => {
    writeSetting(VIEW_KEYS.page, state.page);
    writeSetting(VIEW_KEYS.pageSize, state.pageSize);
    writeSetting(VIEW_KEYS.sortModel, state.sortModel);
    writeSetting(VIEW_KEYS.columnVisibility, state.columnVisibility);
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
 * size outside the offered sizes becomes the default, and sort items name server-sortable fields only.
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
  const page = typeof saved.page === 'number' && Number.isInteger(saved.page) && saved.page >= 0 ? saved.page : 0;
  const sortModel = Array.isArray(saved.sortModel)
    ? saved.sortModel
        .filter(
          (item): item is SortItem =>
            isRecord(item) &&
            typeof item.field === 'string' &&
            toSortField(item.field) !== null &&
            (item.sort === 'asc' || item.sort === 'desc'),
        )
        .slice(0, 1)
        .map((item) => ({ field: item.field, sort: item.sort }))
    : [];
  const columnVisibility: Record<string, boolean> = { ...HIDDEN_BY_DEFAULT };
  if (isRecord(saved.columnVisibility)) {
    for (const [field, visible] of Object.entries(saved.columnVisibility)) {
      // A stored `__proto__` key would set the object's prototype, not hide a column (docs/security.md, Safe lookups).
      if (typeof visible === 'boolean' && !INHERITED_KEYS.includes(field)) columnVisibility[field] = visible;
    }
  }
  return { page, pageSize, sortModel, columnVisibility };
}
