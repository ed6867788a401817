import type { SortOrder } from '@billfold/contract/entries';

/**
 * Reading a grid's view back from session storage (docs/product.md, Saved view settings). Saved text is untrusted:
 * each part that is malformed falls back to its default on its own.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A saved page number: a whole number from 0, else the first page. */
export function savedPage(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

/** A saved sort model: its first item when `isField` knows its column and its order is `asc` or `desc`, else none. */
export function savedSortModel<F extends string>(
  value: unknown,
  isField: (field: unknown) => field is F,
): { field: F; sort: SortOrder }[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (item): item is { field: F; sort: SortOrder } =>
        isRecord(item) && isField(item.field) && (item.sort === 'asc' || item.sort === 'desc'),
    )
    .slice(0, 1)
    .map((item) => ({ field: item.field, sort: item.sort }));
}
