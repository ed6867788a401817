import { daysBetween } from '@billfold/contract/dates';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { day, isoDay, monthOfDay } from '../src/modules/read-model/ledger-index-columns.ts';

/** The ledger index's day numbers (ledger-index-columns.ts) against the contract's day arithmetic. */
describe('day numbers of the ledger index', () => {
  const iso = fc
    .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  it('reads every date of the API’s range as the contract counts it, and back', () => {
    fc.assert(
      fc.property(iso, (date) => {
        expect(day(date)).toBe(daysBetween('1970-01-01', date));
        expect(isoDay(day(date))).toBe(date);
        expect(monthOfDay(day(date))).toBe(Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts leap days, century years and the Due sort’s last day', () => {
    for (const date of [
      '1900-02-28',
      '1900-03-01',
      '2000-02-29',
      '2000-03-01',
      '2024-02-29',
      '2099-12-31',
      '9999-12-31',
    ])
      expect(day(date)).toBe(daysBetween('1970-01-01', date));
    expect(day('1970-01-01')).toBe(0);
    expect(day('1969-12-31')).toBe(-1);
  });
});
