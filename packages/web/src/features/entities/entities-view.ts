import {
  BILL_DEFAULT_PAGE_SIZE,
  BILL_PAGE_SIZES,
  BILL_SORT_FIELDS,
  type BillOverviewQuery,
  type BillSortField,
} from '@billfold/contract/bills';
import type { SortOrder } from '@billfold/contract/entries';
import type { EntityOverviewParams } from '../../api/entities/entity-overview.ts';
import { isRecord, savedPage, savedSortModel } from '../../lib/saved-view.ts';
import { readSetting, VIEW_KEYS, writeSetting } from '../../lib/session.ts';

/**
 * The Entities page's view (docs/product.md, Entities (/entities)): the bills search filter panel's fields that
 * describe an entity — a name search, categories and the Archives choice — and the grid's page, page size and
 * sort. Kept in session storage under `VIEW_KEYS.entitiesView`, which logout clears.
 */

export type ArchivesChoice = 'include' | 'only';

/** The Archives group of the filter panel, as on Home: nothing chosen is active entities only. */
export const ARCHIVES_OPTIONS: readonly { value: ArchivesChoice; label: string }[] = [
  { value: 'include', label: 'Include' },
  { value: 'only', label: 'Only' },
];

export interface EntityFilters {
  name: string;
  categories: string[];
  archives: ArchivesChoice | null;
}

export interface EntitySort {
  field: BillSortField;
  sort: SortOrder;
}

export interface EntitiesView {
  filters: EntityFilters;
  page: number;
  pageSize: number;
  /** Empty: by name, A to Z (the server's default). */
  sortModel: EntitySort[];
}

export const NO_ENTITY_FILTERS: EntityFilters = { name: '', categories: [], archives: null };

export function defaultEntitiesView(): EntitiesView {
  return { filters: NO_ENTITY_FILTERS, page: 0, pageSize: BILL_DEFAULT_PAGE_SIZE, sortModel: [] };
}

export function statusOf(archives: ArchivesChoice | null): NonNullable<BillOverviewQuery['status']> {
  if (archives === 'include') return 'all';
  if (archives === 'only') return 'inactive';
  return 'active';
}

const isSortField = (field: unknown): field is BillSortField =>
  (BILL_SORT_FIELDS as readonly unknown[]).includes(field);

/** Saved text is untrusted: anything malformed falls back to the default, field by field. */
export function sanitizeEntitiesView(saved: unknown): EntitiesView {
  const fallback = defaultEntitiesView();
  if (!isRecord(saved)) return fallback;
  const f = isRecord(saved.filters) ? saved.filters : {};
  const filters: EntityFilters = {
    name: typeof f.name === 'string' ? f.name.slice(0, 100) : '',
    categories: Array.isArray(f.categories) ? f.categories.filter((c): c is string => typeof c === 'string') : [],
    archives: f.archives === 'include' || f.archives === 'only' ? f.archives : null,
  };
  const pageSize =
    typeof saved.pageSize === 'number' && (BILL_PAGE_SIZES as readonly number[]).includes(saved.pageSize)
      ? saved.pageSize
      : fallback.pageSize;
  return { filters, page: savedPage(saved.page), pageSize, sortModel: savedSortModel(saved.sortModel, isSortField) };
}

export function loadEntitiesView(): EntitiesView {
  return sanitizeEntitiesView(readSetting<unknown>(VIEW_KEYS.entitiesView, null));
}

export function saveEntitiesView(view: EntitiesView): void {
  writeSetting(VIEW_KEYS.entitiesView, view);
}

/** The request for the view's applied filters, page and sort, as of the user's `today`. */
export function toOverviewParams(filters: EntityFilters, view: EntitiesView, today: string): EntityOverviewParams {
  const sort = view.sortModel[0];
  return {
    status: statusOf(filters.archives),
    name: filters.name,
    categories: filters.categories,
    sortField: sort?.field ?? null,
    sortOrder: sort?.sort ?? 'asc',
    pageNum: view.page,
    pageSize: view.pageSize,
    today,
  };
}
