import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EntryFilterParams } from '../../api/invoices/list-invoices.ts';
import { FILTER_DEBOUNCE_MS } from '../../lib/timing.ts';
import {
  defaultFilterState,
  type FilterErrors,
  type FilterState,
  hasErrors,
  toFilterParams,
  validateFilters,
} from './filter-model.ts';
import { loadFilterState, loadShowMoreOptions, saveFilterState, saveShowMoreOptions } from './filter-storage.ts';

export interface HomeFilters {
  /** What the controls show (saved on every change). */
  draft: FilterState;
  errors: FilterErrors;
  /** The filters the grid and stats query with: the draft once it is valid and 500 ms have passed, or on Search. */
  params: EntryFilterParams;
  /** Goes up on every Clear Filters (the grid returns to its first page even when the filters were the defaults). */
  clearCount: number;
  showMoreOptions: boolean;
  update: (change: (state: FilterState) => FilterState) => void;
  /** Applies the draft now and asks the server again (disabled while an error shows). */
  search: () => void;
  /** Everything back to the defaults: no filters, the last 30 days, active entities. */
  clear: () => void;
  /** Changes the filters and applies them at once (a link that shows a selection). */
  apply: (change: (state: FilterState) => FilterState) => void;
  setShowMoreOptions: (show: boolean) => void;
}

/** The saved, debounced filter state of the home page. */
export function useHomeFilters(): HomeFilters {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<FilterState>(() => loadFilterState());
  const [applied, setApplied] = useState<FilterState>(() => {
    const saved = loadFilterState();
    return hasErrors(validateFilters(saved)) ? defaultFilterState() : saved;
  });
  const [showMoreOptions, setShowMore] = useState(loadShowMoreOptions);
  const [clearCount, setClearCount] = useState(0);
  const errors = useMemo(() => validateFilters(draft), [draft]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    saveFilterState(draft);
    if (hasErrors(validateFilters(draft))) return;
    timer.current = setTimeout(() => setApplied(draft), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer.current);
  }, [draft]);

  // The same filters keep the same object, so the grid and stats see no change until the query does.
  const key = JSON.stringify(toFilterParams(applied));
  const params = useMemo<EntryFilterParams>(() => JSON.parse(key) as EntryFilterParams, [key]);

  const update = useCallback((change: (state: FilterState) => FilterState) => setDraft(change), []);
  const search = useCallback(() => {
    if (hasErrors(validateFilters(draft))) return;
    clearTimeout(timer.current);
    setApplied(draft);
    // Same filters: ask again anyway (Search means "now"); new filters start their own request.
    if (JSON.stringify(toFilterParams(draft)) === key) void queryClient.invalidateQueries({ queryKey: ['entries'] });
  }, [draft, key, queryClient]);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    const fresh = defaultFilterState();
    setDraft(fresh);
    setApplied(fresh);
    setClearCount((count) => count + 1);
  }, []);
  const apply = useCallback((change: (state: FilterState) => FilterState) => {
    clearTimeout(timer.current);
    setDraft((current) => {
      const next = change(current);
      if (!hasErrors(validateFilters(next))) setApplied(next);
      return next;
    });
  }, []);
  const setShowMoreOptions = useCallback((show: boolean) => {
    setShowMore(show);
    saveShowMoreOptions(show);
  }, []);

  return { draft, errors, params, clearCount, showMoreOptions, update, search, clear, apply, setShowMoreOptions };
}
