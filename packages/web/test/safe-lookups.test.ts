import { INHERITED_KEYS } from '@billfold/contract/own-keys';
import { describe, expect, it } from 'vitest';
import { sanitizeViewState, toSortField } from '../src/components/invoice-grid/grid-state.ts';

/** Saved view settings are user data: a key every object inherits is never looked up or stored as a column. */
describe('grid settings with inherited keys (docs/security.md, Safe lookups)', () => {
  it('keeps no column setting and no sort for `__proto__`, `constructor`, `toString`, …', () => {
    for (const key of INHERITED_KEYS) {
      expect(toSortField(key), key).toBeNull();
      const saved = JSON.parse(`{"columnVisibility": {${JSON.stringify(key)}: false, "amount": false}}`);
      const state = sanitizeViewState({ ...saved, sortModel: [{ field: key, sort: 'asc' }] }, [100], 100);
      expect(Object.entries(state.columnVisibility), key).toEqual([
        ['dueDate', false],
        ['estimate', false],
        ['attachmentCount', false],
        ['amount', false],
      ]);
      expect(state.sortModel).toEqual([]);
    }
  });
});
