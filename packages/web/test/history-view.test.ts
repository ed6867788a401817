import type { HistoryEntry } from '@billfold/contract/history';
import { describe, expect, it } from 'vitest';
import { changeTitle, fieldLines, provenance } from '../src/lib/history-view.ts';

const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  id: 1,
  at: '2026-11-22T12:01:00',
  by: { userId: 7, username: 'alex' },
  action: 'update',
  fields: [],
  ...over,
});

describe('history as the screens show it (docs/decisions/0108-change-history.md)', () => {
  it('names fields as the screens do and formats money, flows, states and entities', () => {
    const lines = fieldLines(
      entry({
        fields: [
          { field: 'amount', from: 120.5, to: 1234.5 },
          { field: 'flow', from: 'OUTGOING', to: 'INCOMING' },
          { field: 'services', from: '', to: 'Water' },
          { field: 'billId', from: 3, to: 4 },
          { field: 'dueDate', from: null, to: '2026-12-01' },
          { field: 'status', from: 1, to: 0 },
          { field: 'internal', from: false, to: true },
        ],
      }),
      (id) => (id === 4 ? 'City Water' : null),
    );
    expect(lines).toEqual([
      { label: 'Amount', from: '120.50', to: '1,234.50' },
      { label: 'Flow', from: 'Expense', to: 'Income' },
      { label: 'Description', from: '—', to: 'Water' },
      { label: 'Entity', from: 'Entity #3', to: 'City Water' },
      { label: 'Due date', from: '—', to: '2026-12-01' },
      { label: 'Status', from: 'Active', to: 'Archived' },
      { label: 'Internal', from: 'No', to: 'Yes' },
    ]);
  });

  it('reads a payment’s type and medium as one method, and leaves recycle to the action', () => {
    const lines = fieldLines(
      entry({
        action: 'recycle',
        fields: [
          { field: 'type', from: 'credit', to: 'cash' },
          { field: 'medium', from: 'web', to: 'person' },
          { field: 'recycle', from: false, to: true },
        ],
      }),
    );
    expect(lines).toEqual([{ label: 'Method', from: 'Credit Card (Online)', to: 'Cash' }]);
  });

  it('says an estimate confirmed, and nothing of a new invoice that is no estimate', () => {
    const confirmed = fieldLines(entry({ fields: [{ field: 'estimated', from: true, to: false }] }));
    expect(confirmed).toEqual([{ label: 'Estimated', from: 'Yes', to: 'No' }]);
    const created = (to: boolean) =>
      fieldLines(
        entry({
          action: 'create',
          fields: [
            { field: 'amount', from: null, to: 45.5 },
            { field: 'estimated', from: null, to },
          ],
        }),
      ).map((line) => line.label);
    expect(created(false)).toEqual(['Amount']);
    expect(created(true)).toEqual(['Amount', 'Estimated']);
  });

  it('a first record lists only the fields that have a value', () => {
    const lines = fieldLines(
      entry({
        action: 'create',
        fields: [
          { field: 'amount', from: null, to: 45.5 },
          { field: 'services', from: null, to: '' },
          { field: 'dueDate', from: null, to: null },
        ],
      }),
    );
    expect(lines).toEqual([{ label: 'Amount', from: '—', to: '45.50' }]);
  });

  it('says who: a member, the server’s own work, or an account that is gone', () => {
    expect(changeTitle(entry({}))).toBe('alex changed');
    expect(changeTitle(entry({ by: null, action: 'autopay' }))).toBe('Billfold recorded an automatic payment');
    expect(changeTitle(entry({ by: null, action: 'update' }))).toBe('A former member changed');
  });

  it('the line under the title: added by the first change, changed by the last', () => {
    expect(provenance([])).toBeNull();
    const added = entry({ action: 'create', at: '2026-11-22T12:01:00' });
    expect(provenance([added])).toMatch(/^Added by alex on Nov 22, 2026, /);
    const changed = entry({ id: 2, by: { userId: 8, username: 'sam' }, at: '2026-11-23T09:00:00' });
    expect(provenance([added, changed])).toMatch(
      /^Added by alex on Nov 22, 2026, .* · Changed by sam on Nov 23, 2026, /,
    );
  });
});
