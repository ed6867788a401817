import { describe, expect, it } from 'vitest';
import { sanitizeViewState } from '../src/components/invoice-grid/grid-state.ts';
import { isRecord, savedPage, savedSortModel } from '../src/lib/saved-view.ts';

const isColor = (field: unknown): field is 'red' | 'blue' => field === 'red' || field === 'blue';

describe('saved grid views read back (lib/saved-view.ts)', () => {
  it('keeps a whole page number from 0, else the first page', () => {
    expect(savedPage(3)).toBe(3);
    expect(savedPage(0)).toBe(0);
    for (const bad of [-1, 1.5, '2', null, undefined, Number.NaN]) expect(savedPage(bad)).toBe(0);
  });

  it('keeps the first sort item of a known column and order, dropping the rest and any extra keys', () => {
    expect(savedSortModel([{ field: 'red', sort: 'desc', extra: 1 }], isColor)).toEqual([
      { field: 'red', sort: 'desc' },
    ]);
    expect(
      savedSortModel(
        [
          { field: 'green', sort: 'asc' },
          { field: 'blue', sort: 'up' },
          { field: 'blue', sort: 'asc' },
          { field: 'red', sort: 'asc' },
        ],
        isColor,
      ),
    ).toEqual([{ field: 'blue', sort: 'asc' }]);
    for (const bad of ['red', { field: 'red', sort: 'asc' }, null, [null, 'red', ['red', 'asc']]])
      expect(savedSortModel(bad, isColor)).toEqual([]);
  });

  it('tells a plain object from arrays and null', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
    expect(isRecord('x')).toBe(false);
  });

  it("the invoice grid keeps a sort on any column the server sorts, by its name or the grid's", () => {
    const view = (sortModel: unknown) => sanitizeViewState({ sortModel, page: 2 }, [10, 100], 100);
    expect(view([{ field: 'paid', sort: 'desc' }]).sortModel).toEqual([{ field: 'paid', sort: 'desc' }]);
    expect(view([{ field: 'dueDate', sort: 'asc' }]).sortModel).toEqual([{ field: 'dueDate', sort: 'asc' }]);
    expect(view([{ field: 'nonsense', sort: 'asc' }]).sortModel).toEqual([]);
    expect(view([{ field: 'paid', sort: 'desc' }]).page).toBe(2);
  });
});
