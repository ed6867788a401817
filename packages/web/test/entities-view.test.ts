import type { Stats } from '@billfold/contract/stats';
import { beforeEach, describe, expect, it } from 'vitest';
import { toOverviewQuery } from '../src/api/entities/entity-overview.ts';
import { breakdownCards } from '../src/components/stats/stats-view.ts';
import {
  defaultEntitiesView,
  loadEntitiesView,
  sanitizeEntitiesView,
  saveEntitiesView,
  toOverviewParams,
} from '../src/features/entities/entities-view.ts';
import { ALL_SESSION_KEYS, VIEW_KEYS } from '../src/lib/session.ts';

describe('the Entities page view', () => {
  beforeEach(() => sessionStorage.clear());

  it('starts with no filters, the first page of 25, by name', () => {
    expect(loadEntitiesView()).toEqual({
      filters: { name: '', categories: [], archives: null },
      page: 0,
      pageSize: 25,
      sortModel: [],
    });
  });

  it('is kept under a key that logout clears, and read back as saved', () => {
    const view = {
      filters: { name: 'oak', categories: ['Utilities'], archives: 'only' as const },
      page: 3,
      pageSize: 50,
      sortModel: [{ field: 'balance' as const, sort: 'desc' as const }],
    };
    saveEntitiesView(view);
    expect(ALL_SESSION_KEYS).toContain(VIEW_KEYS.entitiesView);
    expect(loadEntitiesView()).toEqual(view);
  });

  it('drops what is malformed in saved text, field by field', () => {
    expect(
      sanitizeEntitiesView({
        filters: { name: 7, categories: ['Fuel', 3], archives: 'sometimes' },
        page: -1,
        pageSize: 33,
        sortModel: [{ field: 'amount', sort: 'asc' }],
      }),
    ).toEqual({ ...defaultEntitiesView(), filters: { name: '', categories: ['Fuel'], archives: null } });
    expect(sanitizeEntitiesView('nonsense')).toEqual(defaultEntitiesView());
  });

  it('asks for active entities unless Archives says Include (all) or Only (archived); the name trimmed', () => {
    const view = defaultEntitiesView();
    const query = (archives: 'include' | 'only' | null, name = '') =>
      toOverviewQuery(toOverviewParams({ name, categories: [], archives }, view, '2026-11-25'));
    expect(query(null)).toEqual({ status: 'active', pageNum: 0, pageSize: 25, today: '2026-11-25' });
    expect(query('include').status).toBe('all');
    expect(query('only').status).toBe('inactive');
    expect(query(null, '  Oakwood Properties ').name).toBe('Oakwood Properties');
    expect('name' in query(null, '   ')).toBe(false);
  });
});

describe('the stats breakdown cards', () => {
  const zero: Stats = {
    totalIncomeAmount: 0,
    totalReceivedPaymentAmount: 0,
    totalIncomeOverpaid: 0,
    totalIncomeOutstanding: 0,
    avgReceivedPaymentAmount: 0,
    maxReceivedPaymentAmount: 0,
    totalExpenseAmount: 0,
    totalSentPaymentAmount: 0,
    totalExpenseOverpaid: 0,
    totalExpenseUnpaid: 0,
    avgSentPaymentAmount: 0,
    maxSentPaymentAmount: 0,
    topIncomeSources: {},
    topIncomeTypes: {},
    top5IncomeCategories: {},
    topExpenseRecipients: {},
    topExpenseTypes: {},
    top5ExpenseCategories: {},
  };

  it('leave out a side of nothing but zeros while the other has figures; with nothing anywhere both show', () => {
    expect(breakdownCards({ ...zero, totalExpenseAmount: 75, totalExpenseUnpaid: 75 })).toEqual({
      income: false,
      expense: true,
    });
    expect(breakdownCards({ ...zero, totalIncomeAmount: 300 })).toEqual({ income: true, expense: false });
    // An overpaid zero-amount income invoice still has figures.
    expect(breakdownCards({ ...zero, totalIncomeOverpaid: 5, totalExpenseAmount: 1 })).toEqual({
      income: true,
      expense: true,
    });
    expect(breakdownCards(zero)).toEqual({ income: true, expense: true });
  });
});
