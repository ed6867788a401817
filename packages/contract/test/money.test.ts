import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centsToDecimalString,
  formatAmount,
  formatUsd,
  fromCents,
  MAX_CENTS,
  meanCents,
  toCents,
} from '../src/money.ts';

describe('toCents', () => {
  it.each([
    [0, 0],
    [0.1, 10],
    [0.01, 1],
    [19.99, 1999],
    ['12.5', 1250],
    [' 7 ', 700],
    [999999999.99, 99_999_999_999],
  ])('%j → %d cents', (input, cents) => {
    expect(toCents(input)).toBe(cents);
  });

  it.each([
    [1000000000],
    ['1000000000'],
    [0.001],
    ['1.234'],
    [-1],
    ['-0.5'],
    ['abc'],
    [''],
    [Number.NaN],
    [Infinity],
    [1e21],
    ['1e3'],
  ])('refuses %j', (input) => {
    expect(toCents(input)).toBeNull();
  });

  it('round-trips every cents value exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CENTS }), (cents) => {
        expect(toCents(fromCents(cents))).toBe(cents);
        expect(toCents(centsToDecimalString(cents))).toBe(cents);
      }),
    );
  });
});

describe('formatting', () => {
  it('writes cents as plain decimals', () => {
    expect(centsToDecimalString(5)).toBe('0.05');
    expect(centsToDecimalString(123456)).toBe('1234.56');
    expect(centsToDecimalString(-250)).toBe('-2.50');
  });
  it('formats en-US with 2 decimals and USD', () => {
    expect(formatAmount(1234.5)).toBe('1,234.50');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
  });
  it('averages half-up in cents', () => {
    expect(meanCents(0, 0)).toBe(0);
    expect(meanCents(5, 2)).toBe(3); // 2.5 → 3
    expect(meanCents(4, 3)).toBe(1); // 1.33 → 1
    expect(meanCents(10, 3)).toBe(3); // 3.33 → 3
    expect(meanCents(11, 2)).toBe(6); // 5.5 → 6
  });
});
