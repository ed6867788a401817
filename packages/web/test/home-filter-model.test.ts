import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  archivesFromChoice,
  choiceFromArchives,
  cleanInvoiceInput,
  defaultFilterState,
  EMPTY_FIELDS,
  type FilterFields,
  type FilterState,
  hasErrors,
  invoiceParam,
  isInvoiceKeyAllowed,
  NO_DATE_PROBLEMS,
  pickSingleDate,
  restoreFilterState,
  setDateField,
  showDue,
  switchDateMode,
  toFilterParams,
  toggleChoice,
  validateFilters,
} from '../src/features/home/filter-model.ts';
import { todayIso } from '../src/lib/dates.ts';

const NOW = new Date(2026, 2, 1, 12); // 1 March 2026, local time

function state(overrides: Partial<FilterState> = {}, fields: Partial<FilterState['fields']> = {}): FilterState {
  return {
    fields: { ...EMPTY_FIELDS, ...fields },
    dateRange: { start: null, end: null },
    dateMode: 'range',
    includeArchived: false,
    dateProblems: NO_DATE_PROBLEMS,
    ...overrides,
  };
}

describe('filter defaults (docs/product.md, Timings and limits)', () => {
  it('start at the last 30 days with no end, in range mode, active entities only, nothing else', () => {
    expect(defaultFilterState(NOW)).toEqual({
      fields: EMPTY_FIELDS,
      dateRange: { start: '2026-01-30', end: null },
      dateMode: 'range',
      includeArchived: false,
      dateProblems: NO_DATE_PROBLEMS,
    });
    expect(toFilterParams(defaultFilterState(NOW))).toEqual({ startDate: '2026-01-30', archives: 'false' });
  });
});

describe('date mode (docs/product.md, Date mode)', () => {
  it('Single Date with a start date selects the whole of that day', () => {
    expect(switchDateMode({ start: '2026-02-10', end: '2026-02-20' }, 'single')).toEqual({
      start: '2026-02-10',
      end: '2026-02-10',
    });
    expect(switchDateMode({ start: '2026-02-10', end: null }, 'single')).toEqual({
      start: '2026-02-10',
      end: '2026-02-10',
    });
  });

  it('Single Date without a start date clears both sides', () => {
    expect(switchDateMode({ start: null, end: '2026-02-20' }, 'single')).toEqual({ start: null, end: null });
  });

  it('Date Range keeps the start and clears the end', () => {
    expect(switchDateMode({ start: '2026-02-10', end: '2026-02-10' }, 'range')).toEqual({
      start: '2026-02-10',
      end: null,
    });
    expect(switchDateMode({ start: null, end: null }, 'range')).toEqual({ start: null, end: null });
  });

  it('picking a single date selects that day; clearing it clears the range', () => {
    expect(pickSingleDate('2026-02-14')).toEqual({ start: '2026-02-14', end: '2026-02-14' });
    expect(pickSingleDate(null)).toEqual({ start: null, end: null });
  });
});

describe('single-choice groups and archives (docs/product.md, Filter panel)', () => {
  it('a second click on the selected option deselects it', () => {
    expect(toggleChoice(null, 'paid')).toBe('paid');
    expect(toggleChoice('paid', 'paid')).toBeNull();
    expect(toggleChoice('paid', 'unpaid')).toBe('unpaid');
  });

  it('maps Include → true, Only → only, none → false, and back', () => {
    expect(archivesFromChoice('include')).toBe(true);
    expect(archivesFromChoice('only')).toBe('only');
    expect(archivesFromChoice(null)).toBe(false);
    for (const value of [true, 'only', false] as const)
      expect(archivesFromChoice(choiceFromArchives(value))).toBe(value);
  });
});

describe('Invoice # (docs/product.md, Validation)', () => {
  it('accepts digits, Backspace, Delete, Tab and the left/right arrows only', () => {
    for (const key of ['0', '7', 'Backspace', 'Delete', 'Tab', 'ArrowLeft', 'ArrowRight', 'Enter']) {
      expect(isInvoiceKeyAllowed({ key }), key).toBe(true);
    }
    for (const key of ['a', '-', '.', 'e', '+', ' ', 'ArrowUp', 'ArrowDown', 'Home']) {
      expect(isInvoiceKeyAllowed({ key }), key).toBe(false);
    }
    expect(isInvoiceKeyAllowed({ key: 'v', ctrlKey: true })).toBe(true); // paste; the text is cleaned
    expect(cleanInvoiceInput(' 12a-3 ')).toBe('123');
    expect(cleanInvoiceInput('1'.repeat(20))).toHaveLength(16);
  });

  it('is empty or a number of at least 1', () => {
    expect(invoiceParam('')).toBeUndefined();
    expect(invoiceParam('0')).toBeUndefined();
    expect(invoiceParam('000')).toBeUndefined();
    expect(invoiceParam('007')).toBe('7');
    expect(invoiceParam('42')).toBe('42');
  });
});

describe('validation (docs/product.md, Validation)', () => {
  it('Min above Max is an error unless Max is empty or below 1', () => {
    expect(validateFilters(state({}, { amountMin: 500, amountMax: 100 })).amount).toBe(
      'Min must be less than or equal to Max.',
    );
    expect(validateFilters(state({}, { amountMin: 100, amountMax: 100 })).amount).toBeNull();
    expect(validateFilters(state({}, { amountMin: 500, amountMax: 0 })).amount).toBeNull();
    expect(validateFilters(state({}, { amountMin: 500, amountMax: 0.5 })).amount).toBeNull();
    expect(validateFilters(state({}, { amountMin: 0.5, amountMax: 0.2 })).amount).toBeNull();
  });

  it('a start after the end is an error in Date Range mode only', () => {
    const range = { start: '2026-02-10', end: '2026-02-09' };
    expect(validateFilters(state({ dateRange: range })).date).toBe('Start date must not exceed end date.');
    expect(validateFilters(state({ dateRange: range, dateMode: 'single' })).date).toBeNull();
    expect(validateFilters(state({ dateRange: { start: '2026-02-10', end: '2026-02-10' } })).date).toBeNull();
    expect(validateFilters(state({ dateRange: { start: '2026-02-10', end: null } })).date).toBeNull();
  });

  it('any error disables Search', () => {
    const none = { invoice: null, amount: null, date: null, dateField: null };
    expect(hasErrors(none)).toBe(false);
    for (const key of Object.keys(none)) expect(hasErrors({ ...none, [key]: 'x' })).toBe(true);
  });

  it('Invoice # 0 is an error (numbers start at 1), not a filter silently left out', () => {
    for (const invoice of ['0', '000']) {
      expect(validateFilters(state({}, { invoice })).invoice).toBe('Invoice numbers start at 1.');
    }
    for (const invoice of ['', '1', '007']) expect(validateFilters(state({}, { invoice })).invoice).toBeNull();
  });

  it('a date field with a problem keeps the applied dates and disables Search until it shows a date', () => {
    const before = state({ dateRange: { start: '2026-11-01', end: '2026-11-03' } });
    const typing = setDateField(before, 'end', '', 'Enter a whole date that exists, as YYYY-MM-DD.');
    expect(typing.dateRange).toEqual(before.dateRange);
    expect(validateFilters(typing).dateField).toBe('Enter a whole date that exists, as YYYY-MM-DD.');
    expect(hasErrors(validateFilters(typing))).toBe(true);
    const fixed = setDateField(typing, 'end', '2026-11-30', null);
    expect(fixed.dateRange).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    expect(hasErrors(validateFilters(fixed))).toBe(false);
    expect(setDateField(fixed, 'end', '', null).dateRange).toEqual({ start: '2026-11-01', end: null });
  });

  it('Single Date: a problem blocks Search; a whole date is that whole day', () => {
    const single = state({ dateMode: 'single', dateRange: { start: '2026-11-03', end: '2026-11-03' } });
    const typing = setDateField(single, 'start', '', 'Enter a date from 1900-01-01 to 2099-12-31.');
    expect(hasErrors(validateFilters(typing))).toBe(true);
    expect(setDateField(typing, 'start', '2026-11-30', null).dateRange).toEqual({
      start: '2026-11-30',
      end: '2026-11-30',
    });
    // An End Date problem left from range mode is not shown in single mode.
    expect(
      validateFilters(state({ dateMode: 'single', dateProblems: { start: null, end: 'x' } })).dateField,
    ).toBeNull();
  });
});

describe('filters → GET /entries parameters (docs/api/README.md, Invoices (/entries))', () => {
  it('maps every field', () => {
    const params = toFilterParams(
      state(
        { dateRange: { start: '2026-02-01', end: '2026-02-28' }, includeArchived: 'only' },
        {
          invoice: '0012',
          category: ['Utilities', 'HOA / Taxes'],
          biller: ['Acme Corp'],
          amountMin: 10,
          amountMax: 99.5,
          status: 'partial',
          flow: 'INCOMING',
        },
      ),
    );
    expect(params).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-28',
      invoiceNum: '12',
      categoryList: ['Utilities', 'HOA / Taxes'],
      partyList: ['Acme Corp'],
      min: 10,
      max: 99.5,
      paid: 'partial',
      flow: 'income',
      archives: 'true',
    });
  });

  it('sends the flow and status values the server reads', () => {
    const flow = (value: FilterState['fields']['flow']) => toFilterParams(state({}, { flow: value })).flow;
    expect([flow('INCOMING'), flow('OUTGOING'), flow('internal'), flow(null)]).toEqual([
      'income',
      'expense',
      'internal',
      undefined,
    ]);
    const paid = (value: FilterState['fields']['status']) => toFilterParams(state({}, { status: value })).paid;
    expect([paid('paid'), paid('unpaid'), paid('overpaid'), paid('partial'), paid(null)]).toEqual([
      'true',
      'false',
      'overpaid',
      'partial',
      undefined,
    ]);
  });

  it('archives: Include sends nothing, Only sends true, none sends false', () => {
    expect(toFilterParams(state({ includeArchived: true }))).toEqual({});
    expect(toFilterParams(state({ includeArchived: 'only' }))).toEqual({ archives: 'true' });
    expect(toFilterParams(state({ includeArchived: false }))).toEqual({ archives: 'false' });
  });

  it('leaves out empty fields and amounts below 1', () => {
    expect(toFilterParams(state({ includeArchived: true }, { amountMin: 0.99, amountMax: 0, invoice: '0' }))).toEqual(
      {},
    );
  });
});

describe('restoring saved filters', () => {
  it('reads back what was saved', () => {
    const saved = state(
      { dateRange: { start: '2026-02-01', end: '2026-02-01' }, dateMode: 'single', includeArchived: 'only' },
      {
        invoice: '5',
        category: ['Dining'],
        biller: ['X'],
        amountMin: 2,
        amountMax: 3,
        status: 'paid',
        flow: 'internal',
      },
    );
    const json = JSON.parse(
      JSON.stringify({
        filters: saved.fields,
        dateRange: saved.dateRange,
        dateMode: saved.dateMode,
        includeArchived: saved.includeArchived,
      }),
    );
    expect(restoreFilterState(json, NOW)).toEqual(saved);
  });

  it('falls back part by part when something is missing or malformed', () => {
    expect(restoreFilterState({}, NOW)).toEqual(defaultFilterState(NOW));
    const restored = restoreFilterState(
      {
        filters: {
          invoice: 'a1',
          category: 'Dining',
          biller: [1, 'Y'],
          amountMin: -4,
          status: 'weird',
          flow: 'OUTGOING',
        },
        dateRange: { start: '2026-02-30', end: '1899-12-31' },
        dateMode: 'sideways',
        includeArchived: 'yes',
      },
      NOW,
    );
    expect(restored).toEqual({
      fields: { ...EMPTY_FIELDS, invoice: '1', biller: ['Y'], flow: 'OUTGOING' },
      dateRange: { start: null, end: null },
      dateMode: 'range',
      includeArchived: false,
      dateProblems: NO_DATE_PROBLEMS,
    });
  });
});

describe('activeFilterCount (the Filters button of phones and tablets)', () => {
  const defaults = defaultFilterState(NOW);

  it('is 0 for a first visit and after Clear Filters', () => {
    expect(activeFilterCount(defaults, NOW)).toBe(0);
  });

  it('counts each control that narrows the list, the dates once', () => {
    const busy: FilterState = {
      ...defaults,
      fields: {
        invoice: '12',
        category: ['Utilities', 'Groceries'],
        biller: ['Acme Corp'],
        amountMin: 5,
        amountMax: 50,
        status: 'paid',
        flow: 'INCOMING',
        due: 'next7',
        files: 'without',
      },
      dateRange: { start: '2026-01-01', end: '2026-01-31' },
      includeArchived: 'only',
    };
    expect(activeFilterCount(busy, NOW)).toBe(11);
    expect(activeFilterCount({ ...defaults, fields: { ...EMPTY_FIELDS, status: 'unpaid' } }, NOW)).toBe(1);
  });

  it('counts no dates, archived entities included and a meaningless invoice number as they query', () => {
    expect(activeFilterCount({ ...defaults, dateRange: { start: null, end: null } }, NOW)).toBe(1);
    expect(activeFilterCount({ ...defaults, includeArchived: true }, NOW)).toBe(1);
    expect(activeFilterCount({ ...defaults, fields: { ...EMPTY_FIELDS, invoice: '000' } }, NOW)).toBe(0);
  });
});

describe('the Files filter', () => {
  const defaults = defaultFilterState(NOW);
  const files = (value: FilterFields['files']) =>
    toFilterParams({ ...defaults, fields: { ...EMPTY_FIELDS, files: value } }, NOW).hasAttachment;

  it('asks for invoices with files, without, or leaves the parameter out for any', () => {
    expect(files('with')).toBe('true');
    expect(files('without')).toBe('false');
    expect(files(null)).toBeUndefined();
  });

  it('is restored from saved settings, and a forged value is none', () => {
    expect(restoreFilterState({ filters: { files: 'without' } }, NOW).fields.files).toBe('without');
    expect(restoreFilterState({ filters: { files: 'maybe' } }, NOW).fields.files).toBeNull();
  });
});

describe('the Due filter', () => {
  const defaults = defaultFilterState(NOW);
  const today = todayIso(NOW);

  it('asks for overdue or upcoming invoices as of the user’s own date', () => {
    const due = (value: FilterFields['due']) =>
      toFilterParams({ ...defaults, fields: { ...EMPTY_FIELDS, due: value } }, NOW);
    expect(due('overdue')).toMatchObject({ due: 'overdue', today });
    expect(due('overdue').dueWithin).toBeUndefined();
    expect(due('next7')).toMatchObject({ due: 'upcoming', dueWithin: 7, today });
    expect(due('next30')).toMatchObject({ due: 'upcoming', dueWithin: 30, today });
    expect(toFilterParams(defaults, NOW).today).toBeUndefined();
  });

  it('shows a due selection with the other filters kept and the date range cleared', () => {
    const state = { ...defaults, fields: { ...EMPTY_FIELDS, flow: 'OUTGOING' as const } };
    const shown = showDue(state, 'overdue');
    expect(shown.fields).toMatchObject({ flow: 'OUTGOING', due: 'overdue' });
    expect(shown.dateRange).toEqual({ start: null, end: null });
  });

  it('restores a saved choice and drops an unknown one', () => {
    expect(restoreFilterState({ filters: { due: 'next30' } }, NOW).fields.due).toBe('next30');
    expect(restoreFilterState({ filters: { due: 'someday' } }, NOW).fields.due).toBeNull();
  });
});
