import { readSetting, VIEW_KEYS, writeSetting } from '../../lib/session.ts';
import { type FilterState, restoreFilterState } from './filter-model.ts';

/** The home page's saved filters (docs/product.md, Saved view settings), under the `VIEW_KEYS` that logout clears. */
export function loadFilterState(now = new Date()): FilterState {
  return restoreFilterState(
    {
      filters: readSetting<unknown>(VIEW_KEYS.filters, undefined),
      dateRange: readSetting<unknown>(VIEW_KEYS.dateRange, undefined),
      dateMode: readSetting<unknown>(VIEW_KEYS.dateMode, undefined),
      includeArchived: readSetting<unknown>(VIEW_KEYS.includeArchived, undefined),
    },
    now,
  );
}

export function saveFilterState(state: FilterState): void {
  writeSetting(VIEW_KEYS.filters, state.fields);
  writeSetting(VIEW_KEYS.dateRange, state.dateRange);
  writeSetting(VIEW_KEYS.dateMode, state.dateMode);
  writeSetting(VIEW_KEYS.includeArchived, state.includeArchived);
}

/** The Show more options choice (docs/product.md, Filter panel), saved under `showMoreOptions`. */
export function loadShowMoreOptions(): boolean {
  return readSetting<unknown>(VIEW_KEYS.showMoreOptions, false) === true;
}

export function saveShowMoreOptions(show: boolean): void {
  writeSetting(VIEW_KEYS.showMoreOptions, show);
}
