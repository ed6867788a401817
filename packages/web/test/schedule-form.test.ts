import type { Schedule } from '@billfold/contract/schedules';
import { describe, expect, it } from 'vitest';
import { importedMessage } from '../src/features/account/AccountDataSection.tsx';
import { scheduleLine } from '../src/features/entities/entity-actions.tsx';
import {
  checkScheduleForm,
  descriptionHelp,
  emptyScheduleForm,
  immediateCount,
  previewDates,
  type ScheduleFormValues,
  scheduleAmountText,
  scheduleFormFromSchedule,
  toScheduleBody,
} from '../src/features/entities/schedule-form.ts';

const form = (overrides: Partial<ScheduleFormValues> = {}): ScheduleFormValues => ({
  ...emptyScheduleForm('2026-11-22', false),
  description: 'Rent {month} {year}',
  amount: '1250',
  ...overrides,
});

describe('schedule form', () => {
  it('starts today, monthly on today’s day, open-ended, due on the invoice date', () => {
    expect(emptyScheduleForm('2026-11-22', false)).toMatchObject({
      cadence: 'monthly',
      interval: '1',
      dayOfMonth: '22',
      firstDate: '2026-11-22',
      ends: 'never',
      dueDays: '0',
      autopay: false,
    });
  });

  it('names the first problem with the contract’s rules, in the words of the fields on screen', () => {
    expect(checkScheduleForm(form())).toBeNull();
    expect(checkScheduleForm(form({ amount: '' }))).toBe('Amount is required.');
    expect(checkScheduleForm(form({ interval: '0' }))).toBe('Every must be a whole number from 1 to 99.');
    expect(checkScheduleForm(form({ description: 'Rent {Month}' }))).toBe(
      'Description has an unknown placeholder {Month}: use {date}, {day}, {month}, {year}, {quarter}, {n}.',
    );
    expect(checkScheduleForm(form({ ends: 'date', endDate: '2026-01-01' }))).toBe(
      'End date must not be before the first date.',
    );
    expect(checkScheduleForm(form({ ends: 'count', count: 'ten' }))).toBe(
      'Number of invoices must be a whole number from 1 to 1000.',
    );
    expect(checkScheduleForm(form({ autopay: true }))).toBe('Choose the payment method of the automatic payments.');
  });

  it('sends only what the chosen end needs, and no day of month for weekly schedules', () => {
    expect(toScheduleBody(form({ ends: 'count', count: '12', endDate: '2027-01-01' }))).toMatchObject({
      endDate: null,
      count: 12,
      dayOfMonth: 22,
      amount: 1250,
      autopay: null,
    });
    expect(toScheduleBody(form({ cadence: 'weekly', autopay: true, method: 'bank|ach' }))).toMatchObject({
      dayOfMonth: null,
      autopay: 'bank|ach',
    });
  });

  it('previews the next dates and counts the invoices a past first date creates at once', () => {
    const past = form({ firstDate: '2026-09-30', dayOfMonth: '31' });
    expect(previewDates(past, '2026-11-22')).toEqual(['2026-11-30', '2026-12-31', '2027-01-31']);
    expect(immediateCount(past, '2026-11-22')).toBe(2);
    expect(immediateCount(form({ firstDate: '2026-12-01' }), '2026-11-22')).toBe(0);
    expect(previewDates(form({ interval: 'x' }), '2026-11-22')).toEqual([]);
    // On an invoice's own day it is created at once, not listed as a next one too.
    expect(previewDates(past, '2026-11-30')).toEqual(['2026-12-31', '2027-01-31', '2027-02-28']);
    expect(immediateCount(past, '2026-11-30')).toBe(3);
    // A first date of today: that one at once, the next ones after it.
    expect(previewDates(form({ firstDate: '2026-11-22', dayOfMonth: '22' }), '2026-11-22')[0]).toBe('2026-12-22');
  });

  it('shows a stored schedule as it was entered', () => {
    const schedule: Schedule = {
      id: 1,
      entityId: 2,
      cadence: 'weekly',
      interval: 2,
      dayOfMonth: null,
      firstDate: '2026-11-03',
      endDate: null,
      count: 10,
      amount: 40.5,
      amountMode: 'fixed',
      averageOf: null,
      estimate: 40.5,
      flow: 'OUTGOING',
      description: 'Cleaning',
      dueDays: 3,
      autopay: 'other|service',
      paused: false,
      nextDate: '2026-11-17',
      createdCount: 1,
      createdAt: '2026-11-01T10:00:00',
    };
    const values = scheduleFormFromSchedule(schedule);
    expect(values).toMatchObject({
      ends: 'count',
      count: '10',
      autopay: true,
      method: 'other|service',
      flow: 'expense',
    });
    expect(toScheduleBody(values)).toMatchObject({
      cadence: 'weekly',
      interval: 2,
      count: 10,
      amount: 40.5,
      dueDays: 3,
    });
  });

  it('names imported schedules, categories and files only when the file had some', () => {
    const none = { schedules: 0, categories: 0, attachments: 0 };
    expect(importedMessage({ ...none, entities: 2, invoices: 3, payments: 1 })).toBe(
      'Imported 2 entities, 3 invoices and 1 payment.',
    );
    expect(importedMessage({ ...none, entities: 1, invoices: 1, payments: 0, schedules: 2 })).toBe(
      'Imported 1 entity, 1 invoice, 0 payments and 2 schedules.',
    );
    expect(importedMessage({ ...none, entities: 1, invoices: 1, payments: 0, categories: 2 })).toBe(
      'Imported 1 entity, 1 invoice, 0 payments and 2 categories.',
    );
    expect(importedMessage({ ...none, entities: 1, invoices: 1, payments: 1, attachments: 3 })).toBe(
      'Imported 1 entity, 1 invoice, 1 payment and 3 files.',
    );
  });
});

describe('the amount mode', () => {
  it('sends fixed by default, the count only with an average, and refuses a count out of range in words', () => {
    expect(toScheduleBody(form())).toMatchObject({ amountMode: 'fixed', averageOf: null });
    expect(toScheduleBody(form({ amountMode: 'last', averageOf: '5' }))).toMatchObject({
      amountMode: 'last',
      averageOf: null,
    });
    expect(toScheduleBody(form({ amountMode: 'average', averageOf: '6' }))).toMatchObject({
      amountMode: 'average',
      averageOf: 6,
    });
    expect(checkScheduleForm(form({ amountMode: 'average', averageOf: '6' }))).toBeNull();
    expect(checkScheduleForm(form({ amountMode: 'average', averageOf: '1' }))).toBe(
      'Average of must be a whole number from 2 to 24.',
    );
    expect(checkScheduleForm(form({ amountMode: 'average', averageOf: 'x' }))).toBe(
      'Average of must be a whole number from 2 to 24.',
    );
  });

  it('reads a stored schedule’s mode back, and lists a variable one by its estimate', () => {
    const stored = {
      amount: 50,
      amountMode: 'average' as const,
      averageOf: 4,
      estimate: 105.01,
    };
    expect(scheduleAmountText(stored)).toBe('about $105.01 (average of the last 4)');
    expect(scheduleAmountText({ ...stored, amountMode: 'last', averageOf: null })).toBe('about $105.01 (same as last)');
    expect(scheduleAmountText({ ...stored, amountMode: 'fixed', averageOf: null })).toBe('$50.00');
    expect(emptyScheduleForm('2026-11-22', false)).toMatchObject({ amountMode: 'fixed', averageOf: '3' });
  });

  it('the Entities page lists a variable schedule by its estimate too', () => {
    const summary = {
      id: 7,
      cadence: 'monthly' as const,
      interval: 1,
      dayOfMonth: 1,
      amount: 1,
      amountMode: 'last' as const,
      averageOf: null,
      estimate: 61.2,
      flow: 'OUTGOING' as const,
      paused: false,
      nextDate: '2026-12-01',
      ended: false,
    };
    expect(scheduleLine(summary)).toBe('Monthly on the 1st · about $61.20 (same as last) · next 2026-12-01');
    expect(scheduleLine({ ...summary, amountMode: 'fixed', amount: 1250, paused: true })).toBe(
      'Monthly on the 1st · $1,250.00 · paused',
    );
  });
});

describe('the description help', () => {
  it('shows the next description only once there is one to show', () => {
    expect(descriptionHelp('', '2026-12-01')).not.toContain('Next');
    expect(descriptionHelp('   ', '2026-12-01')).not.toContain('Next');
    expect(descriptionHelp('Rent {month}', undefined)).not.toContain('Next');
    expect(descriptionHelp('Rent', '2026-12-01')).toMatch(/^Placeholders: .*\. Next: “Rent”$/);
    expect(descriptionHelp('Rent {year}', '2026-12-01')).toContain('Next: “Rent 2026”');
  });
});
