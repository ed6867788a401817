import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../src/dates.ts';
import {
  cadenceLabel,
  expandTemplate,
  firstOccurrenceOnOrAfter,
  occurrenceAfter,
  occurrenceDate,
  occurrenceDueDate,
  occurrencesAfter,
  type ScheduleRule,
  unknownPlaceholder,
  upcomingOccurrences,
} from '../src/schedule-dates.ts';
import * as before from './schedule-dates.before.ts';

// An oracle written with UTC epoch arithmetic only, independent of the date library the product uses.
const DAY_MS = 86_400_000;
const toEpochDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const fromEpochDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const daysInMonth = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
const STEP = { monthly: 1, quarterly: 3, yearly: 12 } as const;

/** Every candidate date of the rule (ignoring firstDate/endDate filtering for month-based), in order. */
function oracleCandidate(rule: ScheduleRule, j: number): string {
  if (rule.cadence === 'weekly') return fromEpochDay(toEpochDay(rule.firstDate) + j * 7 * rule.interval);
  const [y, m] = rule.firstDate.split('-').map(Number) as [number, number];
  const total = m - 1 + j * STEP[rule.cadence] * rule.interval;
  const year = y + Math.floor(total / 12);
  const month0 = total % 12;
  const day = Math.min(rule.dayOfMonth ?? 1, daysInMonth(year, month0));
  return `${String(year).padStart(4, '0')}-${String(month0 + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The rule's occurrences by the oracle: candidates on or after the first date, up to `limit` of them. */
function oracleOccurrences(rule: ScheduleRule, limit: number): string[] {
  const out: string[] = [];
  for (let j = 0; out.length < limit && j < limit + 2; j++) {
    const date = oracleCandidate(rule, j);
    if (date > '2099-12-31') break;
    if (date >= rule.firstDate && (rule.endDate === null || date <= rule.endDate)) out.push(date);
  }
  return out;
}

const isoDay = fc
  .integer({ min: toEpochDay('1900-01-01'), max: toEpochDay('2090-12-31') })
  .map((day) => fromEpochDay(day));
// Dates around month ends and February of leap and common years, where the arithmetic goes wrong.
const monthEndDay = fc
  .record({
    year: fc.constantFrom(1900, 1999, 2000, 2023, 2024, 2025, 2028, 2096, 2089),
    month0: fc.integer({ min: 0, max: 11 }),
    fromEnd: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ year, month0, fromEnd }) =>
    fromEpochDay(
      toEpochDay(`${year}-${String(month0 + 1).padStart(2, '0')}-01`) + daysInMonth(year, month0) - 1 - fromEnd,
    ),
  );
const anyDay = fc.oneof(isoDay, monthEndDay);

const rule = fc
  .record({
    cadence: fc.constantFrom('weekly', 'monthly', 'quarterly', 'yearly') as fc.Arbitrary<ScheduleRule['cadence']>,
    interval: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 6 })),
    dayOfMonth: fc.oneof(fc.integer({ min: 28, max: 31 }), fc.integer({ min: 1, max: 31 })),
    firstDate: anyDay,
    span: fc.option(fc.integer({ min: 0, max: 4000 }), { nil: null }),
  })
  .map(
    ({ cadence, interval, dayOfMonth, firstDate, span }): ScheduleRule => ({
      cadence,
      interval,
      dayOfMonth: cadence === 'weekly' ? null : dayOfMonth,
      firstDate,
      endDate: span === null ? null : fromEpochDay(Math.min(toEpochDay(firstDate) + span, toEpochDay('2099-12-31'))),
    }),
  );

describe('schedule arithmetic (property tests against an independent oracle)', () => {
  it('lists the same occurrences as the oracle, in order, within first and end dates', () => {
    fc.assert(
      fc.property(rule, (r) => {
        const expected = oracleOccurrences(r, 30);
        expect(upcomingOccurrences(r, r.firstDate, 30)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('finds the first occurrence on or after any date, as a scan of the oracle would', () => {
    fc.assert(
      fc.property(rule, fc.integer({ min: -40, max: 1500 }), (r, offset) => {
        const from = fromEpochDay(Math.max(toEpochDay('1900-01-01'), toEpochDay(r.firstDate) + offset));
        const all = oracleOccurrences(r, 400);
        const expected = all.find((d) => d >= from) ?? null;
        // Beyond what the scan covered the oracle cannot say; those cases are skipped.
        fc.pre(expected !== null || all.length < 400);
        expect(firstOccurrenceOnOrAfter(r, from)).toBe(expected);
        if (expected !== null) expect(occurrenceAfter(r, addDays(expected, -1))).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('a month-based schedule lands on its day, or on the last day of a shorter month', () => {
    fc.assert(
      fc.property(rule, fc.integer({ min: 0, max: 60 }), (r, index) => {
        fc.pre(r.cadence !== 'weekly');
        const date = occurrenceDate(r, index);
        fc.pre(date !== null);
        const [y, m, d] = (date as string).split('-').map(Number) as [number, number, number];
        expect(d).toBe(Math.min(r.dayOfMonth ?? 0, daysInMonth(y, m - 1)));
      }),
      { numRuns: 400 },
    );
  });

  it('weekly occurrences are exactly interval × 7 days apart, on the first date’s weekday', () => {
    fc.assert(
      fc.property(rule, fc.integer({ min: 0, max: 500 }), (r, index) => {
        fc.pre(r.cadence === 'weekly');
        const a = occurrenceDate(r, index);
        const b = occurrenceDate(r, index + 1);
        fc.pre(a !== null && b !== null);
        expect(toEpochDay(b as string) - toEpochDay(a as string)).toBe(7 * r.interval);
        expect(new Date(`${a}T00:00:00Z`).getUTCDay()).toBe(new Date(`${r.firstDate}T00:00:00Z`).getUTCDay());
      }),
    );
  });

  it('is the same in a time zone whose daylight-saving change skips midnight', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'America/Sao_Paulo'; // 2018-11-04 had no 00:00 there
    try {
      fc.assert(
        fc.property(rule, (r) => {
          expect(upcomingOccurrences(r, r.firstDate, 20)).toEqual(oracleOccurrences(r, 20));
        }),
        { numRuns: 200 },
      );
      const sundays = {
        cadence: 'weekly',
        interval: 1,
        dayOfMonth: null,
        firstDate: '2018-10-28',
        endDate: null,
      } as const;
      expect(upcomingOccurrences(sundays, '2018-10-28', 3)).toEqual(['2018-10-28', '2018-11-04', '2018-11-11']);
    } finally {
      process.env.TZ = previous;
    }
  });
});

describe('occurrences by index (equal to the previous one-search-per-occurrence arithmetic)', () => {
  const start = fc.oneof(anyDay, fc.constant('2099-12-31'), fc.constant('2099-12-30'));

  it('steps through the same dates as calling the previous occurrenceAfter on each in turn, to any horizon', () => {
    fc.assert(
      fc.property(rule, start, fc.integer({ min: 0, max: 4000 }), (r, from, horizonDays) => {
        const horizon = fromEpochDay(Math.min(toEpochDay(from) + horizonDays, toEpochDay('2099-12-31')));
        const expected: string[] = [];
        for (let d = before.occurrenceAfter(r, from); d !== null && d <= horizon; d = before.occurrenceAfter(r, d)) {
          expected.push(d);
        }
        const actual: string[] = [];
        for (const d of occurrencesAfter(r, from)) {
          if (d > horizon) break;
          actual.push(d);
        }
        expect(actual).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('answers every single-date question as before', () => {
    fc.assert(
      fc.property(rule, start, fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 40 }), (r, from, i, n) => {
        expect(occurrenceAfter(r, from)).toBe(before.occurrenceAfter(r, from));
        expect(firstOccurrenceOnOrAfter(r, from)).toBe(before.firstOccurrenceOnOrAfter(r, from));
        expect(occurrenceDate(r, i)).toBe(before.occurrenceDate(r, i));
        expect(upcomingOccurrences(r, from, n)).toEqual(before.upcomingOccurrences(r, from, n));
      }),
      { numRuns: 500 },
    );
  });
});

describe('schedule arithmetic (examples)', () => {
  const monthly = (firstDate: string, dayOfMonth: number): ScheduleRule => ({
    cadence: 'monthly',
    interval: 1,
    dayOfMonth,
    firstDate,
    endDate: null,
  });

  it('"on the 31st" gives the last day of shorter months, Feb 29 in leap years', () => {
    expect(upcomingOccurrences(monthly('2024-01-31', 31), '2024-01-01', 4)).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
    ]);
    expect(upcomingOccurrences(monthly('2025-01-31', 31), '2025-01-01', 2)).toEqual(['2025-01-31', '2025-02-28']);
  });

  it('starts in the next month when the first date is after the day', () => {
    expect(upcomingOccurrences(monthly('2026-03-20', 5), '2026-01-01', 2)).toEqual(['2026-04-05', '2026-05-05']);
  });

  it('a yearly schedule on Feb 29 falls on Feb 28 in common years', () => {
    const r: ScheduleRule = { cadence: 'yearly', interval: 1, dayOfMonth: 29, firstDate: '2024-02-29', endDate: null };
    expect(upcomingOccurrences(r, '2024-01-01', 5)).toEqual([
      '2024-02-29',
      '2025-02-28',
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
    ]);
  });

  it('ends at the end date and at the last date the app stores', () => {
    const r: ScheduleRule = { ...monthly('2026-01-15', 15), endDate: '2026-03-15' };
    expect(upcomingOccurrences(r, '2026-01-01', 10)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15']);
    expect(occurrenceAfter(monthly('2099-11-30', 30), '2099-12-30')).toBeNull();
  });

  it("puts an occurrence's due date its due days later, never past the last date the app stores", () => {
    expect(occurrenceDueDate('2026-01-31', 0)).toBe('2026-01-31');
    expect(occurrenceDueDate('2026-12-20', 25)).toBe('2027-01-14');
    expect(occurrenceDueDate('2099-12-01', 30)).toBe('2099-12-31');
    expect(occurrenceDueDate('2099-12-20', 365)).toBe('2099-12-31');
  });

  it('expands description templates', () => {
    expect(expandTemplate('Rent {month} {year} ({quarter}, #{n}, day {day}, {date})', '2026-03-07', 3)).toBe(
      'Rent March 2026 (Q1, #3, day 7, 2026-03-07)',
    );
    expect(unknownPlaceholder('Rent {month} {Year}')).toBe('{Year}');
    expect(unknownPlaceholder('Rent {month} {year}')).toBeNull();
  });

  it('describes the cadence in words', () => {
    expect(cadenceLabel({ cadence: 'weekly', interval: 2, dayOfMonth: null })).toBe('Every 2 weeks');
    expect(cadenceLabel({ cadence: 'monthly', interval: 1, dayOfMonth: 31 })).toBe(
      'Monthly on the 31st (the last day in shorter months)',
    );
    expect(cadenceLabel({ cadence: 'quarterly', interval: 1, dayOfMonth: 2 })).toBe('Quarterly on the 2nd');
    expect(cadenceLabel({ cadence: 'yearly', interval: 3, dayOfMonth: 11 })).toBe('Every 3 years on the 11th');
  });
});
