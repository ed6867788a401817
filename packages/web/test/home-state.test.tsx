import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  homeGridStore,
  memoryGridStore,
  sanitizeViewState,
  toSortParams,
} from '../src/components/invoice-grid/grid-state.ts';
import { goToPageProblem, parseGoToPage } from '../src/components/invoice-grid/InvoiceGridFooter.tsx';
import { defaultFilterState, EMPTY_FIELDS } from '../src/features/home/filter-model.ts';
import {
  loadFilterState,
  loadShowMoreOptions,
  saveFilterState,
  saveShowMoreOptions,
} from '../src/features/home/filter-storage.ts';
import { type HomeFilters, useHomeFilters } from '../src/features/home/use-home-filters.ts';
import { clearSession } from '../src/lib/session.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  clearSession();
  sessionStorage.clear();
  vi.useRealTimers();
});

describe('saved filters (docs/product.md, Saved view settings)', () => {
  it('round-trips through session storage under the view keys, and logout clears them', () => {
    const state = {
      ...defaultFilterState(),
      fields: { ...EMPTY_FIELDS, invoice: '12', category: ['Dining'], amountMax: 40 },
      includeArchived: 'only' as const,
      dateMode: 'single' as const,
      dateRange: { start: '2026-02-01', end: '2026-02-01' },
    };
    saveFilterState(state);
    saveShowMoreOptions(true);
    expect(JSON.parse(sessionStorage.getItem('filters') ?? '')).toEqual(state.fields);
    expect(sessionStorage.getItem('includeArchived')).toBe('"only"');
    expect(sessionStorage.getItem('dateMode')).toBe('"single"');
    expect(sessionStorage.getItem('showMoreOptions')).toBe('true');
    expect(loadFilterState()).toEqual(state);
    expect(loadShowMoreOptions()).toBe(true);

    clearSession();
    expect(loadFilterState()).toEqual(defaultFilterState());
    expect(loadShowMoreOptions()).toBe(false);
  });
});

describe('saved grid state', () => {
  it('keeps page, page size, sort, columns and their dragged widths under the home keys', () => {
    homeGridStore.save({
      page: 2,
      pageSize: 25,
      sortModel: [{ field: 'amount', sort: 'desc' }],
      columnVisibility: { services: false },
      columnWidths: { name: 260, date: 120 },
    });
    expect(JSON.parse(sessionStorage.getItem('columnWidths') ?? '')).toEqual({ name: 260, date: 120 });
    expect(sessionStorage.getItem('page')).toBe('2');
    expect(sessionStorage.getItem('pageSize')).toBe('25');
    expect(JSON.parse(sessionStorage.getItem('sortModel') ?? '')).toEqual([{ field: 'amount', sort: 'desc' }]);
    expect(sanitizeViewState(homeGridStore.load(), [5, 10, 25, 50, 100], 100)).toEqual({
      page: 2,
      pageSize: 25,
      sortModel: [{ field: 'amount', sort: 'desc' }],
      columnVisibility: { dueDate: false, estimate: false, attachmentCount: false, services: false },
      columnWidths: { name: 260, date: 120 },
    });
    clearSession();
    expect(sessionStorage.getItem('columnWidths')).toBeNull();
  });

  it('hides the Due, Estimate and Files columns until the user shows them, and keeps them shown then', () => {
    expect(sanitizeViewState({}, [100], 100).columnVisibility).toEqual({
      dueDate: false,
      estimate: false,
      attachmentCount: false,
    });
    expect(sanitizeViewState({ columnVisibility: { dueDate: true } }, [100], 100).columnVisibility).toEqual({
      dueDate: true,
      estimate: false,
      attachmentCount: false,
    });
    expect(sanitizeViewState({ columnVisibility: { attachmentCount: true } }, [100], 100).columnVisibility).toEqual({
      dueDate: false,
      estimate: false,
      attachmentCount: true,
    });
  });

  it('a memory store never touches session storage', () => {
    const store = memoryGridStore({ pageSize: 10 });
    store.save({ page: 1, pageSize: 5, sortModel: [], columnVisibility: {}, columnWidths: {} });
    expect(store.load()).toEqual({ page: 1, pageSize: 5, sortModel: [], columnVisibility: {}, columnWidths: {} });
    expect(sessionStorage.length).toBe(0);
  });

  it('distrusts what it reads: page sizes outside the options, bad pages, unknown sort fields', () => {
    expect(
      sanitizeViewState(
        {
          page: -1,
          pageSize: 1000,
          sortModel: [{ field: 'password', sort: 'asc' }, 'x'],
          columnVisibility: { services: 'no', amount: false },
          columnWidths: { name: 'wide', date: 10, amount: 1e9, category: Number.NaN, services: 180.4 },
        },
        [5, 10, 25, 50, 100],
        100,
      ),
    ).toEqual({
      page: 0,
      pageSize: 100,
      sortModel: [],
      columnVisibility: { dueDate: false, estimate: false, attachmentCount: false, amount: false },
      columnWidths: { services: 180 },
    });
    expect(sanitizeViewState({ page: 1.5, pageSize: 7 }, [2, 5, 10], 10)).toMatchObject({ page: 0, pageSize: 10 });
  });

  it('sends the first sort item as sortField/sortOrder, the server default when there is none', () => {
    expect(toSortParams([])).toEqual({});
    expect(toSortParams([{ field: 'status', sort: 'asc' }])).toEqual({ sortField: 'status', sortOrder: 'asc' });
    expect(toSortParams([{ field: 'invoiceId', sort: 'desc' }])).toEqual({ sortField: 'invoiceId', sortOrder: 'desc' });
    expect(toSortParams([{ field: 'paid', sort: 'desc' }])).toEqual({ sortField: 'status', sortOrder: 'desc' });
  });

  it('Go-to-page accepts a page of the grid only', () => {
    expect(parseGoToPage('3', 3)).toBe(3);
    expect(parseGoToPage('4', 3)).toBeNull();
    expect(parseGoToPage('0', 3)).toBeNull();
    expect(parseGoToPage('', 3)).toBeNull();
    expect(parseGoToPage('1', 0)).toBeNull();
  });

  it('Go-to-page says why Go is disabled', () => {
    expect(goToPageProblem('', 3)).toBeNull();
    expect(goToPageProblem('2', 3)).toBeNull();
    expect(goToPageProblem('4', 3)).toBe('The last page is 3.');
    expect(goToPageProblem('0', 3)).toBe('Pages start at 1.');
    expect(goToPageProblem('2', 0)).toBe('The last page is 1.');
  });
});

let current: HomeFilters;

/** Exposes the hook's latest value to the test. */
function Probe() {
  current = useHomeFilters();
  return null;
}

describe('useHomeFilters', () => {
  let container: HTMLDivElement;
  let root: Root;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date(2026, 2, 1, 12));
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  function render() {
    act(() =>
      root.render(
        <QueryClientProvider client={new QueryClient()}>
          <Probe />
        </QueryClientProvider>,
      ),
    );
  }

  it('applies a change 500 ms after the last one, and saves what the controls show at once', () => {
    render();
    expect(current.params).toEqual({ startDate: '2026-01-30', archives: 'false' });
    act(() => current.update((s) => ({ ...s, fields: { ...s.fields, invoice: '1' } })));
    act(() => vi.advanceTimersByTime(300));
    act(() => current.update((s) => ({ ...s, fields: { ...s.fields, invoice: '12' } })));
    expect(JSON.parse(sessionStorage.getItem('filters') ?? '').invoice).toBe('12');
    act(() => vi.advanceTimersByTime(499));
    expect(current.params.invoiceNum).toBeUndefined();
    act(() => vi.advanceTimersByTime(1));
    expect(current.params.invoiceNum).toBe('12');
  });

  it('never applies an invalid state, and Search is refused while it is invalid', () => {
    render();
    act(() => current.update((s) => ({ ...s, fields: { ...s.fields, amountMin: 50, amountMax: 10 } })));
    expect(current.errors.amount).toBe('Min must be less than or equal to Max.');
    act(() => vi.advanceTimersByTime(2000));
    act(() => current.search());
    expect(current.params.min).toBeUndefined();
    act(() => current.update((s) => ({ ...s, fields: { ...s.fields, amountMax: 60 } })));
    act(() => current.search());
    expect(current.params).toMatchObject({ min: 50, max: 60 });
  });

  it('Clear Filters resets everything at once and counts the reset', () => {
    render();
    act(() =>
      current.update((s) => ({
        ...s,
        includeArchived: true,
        dateMode: 'single',
        fields: { ...s.fields, flow: 'internal' },
      })),
    );
    act(() => vi.advanceTimersByTime(500));
    expect(current.params).toEqual({ startDate: '2026-01-30', flow: 'internal' });
    act(() => current.clear());
    expect(current.draft).toEqual(defaultFilterState());
    expect(current.params).toEqual({ startDate: '2026-01-30', archives: 'false' });
    expect(current.clearCount).toBe(1);
  });

  it('restores the saved state on load; an invalid saved state is shown but not queried', () => {
    saveFilterState({
      ...defaultFilterState(),
      fields: { ...EMPTY_FIELDS, biller: ['Acme Corp'] },
      dateRange: { start: '2026-02-05', end: null },
    });
    saveShowMoreOptions(true);
    render();
    expect(current.params).toEqual({ startDate: '2026-02-05', partyList: ['Acme Corp'], archives: 'false' });
    expect(current.showMoreOptions).toBe(true);
    act(() => root.unmount());

    saveFilterState({ ...defaultFilterState(), dateRange: { start: '2026-02-05', end: '2026-02-01' } });
    root = createRoot(container);
    render();
    expect(current.draft.dateRange).toEqual({ start: '2026-02-05', end: '2026-02-01' });
    expect(current.errors.date).toBe('Start date must not exceed end date.');
    expect(current.params).toEqual({ startDate: '2026-01-30', archives: 'false' });
  });
});
