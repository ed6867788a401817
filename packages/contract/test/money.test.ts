import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centsOf,
  centsToDecimalString,
  formatAmount,
  formatUsd,
  formatUsdCompact,
  fromCents,
  MAX_CENTS,
  meanCents,
  parseAmountText,
  parseSignedAmountText,
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

describe('centsOf', () => {
  it("reads any amount the API sends, a sum past one invoice's limit or a net below zero, to the cent", () => {
    expect([centsOf(1999999999.98), centsOf(-0.07), centsOf(-1999999999.98), centsOf(0)]).toEqual([
      199_999_999_998, -7, -199_999_999_998, 0,
    ]);
    // Every sum of a thousand largest amounts, either sign: the JSON number of a cents sum reads back exactly.
    fc.assert(
      fc.property(fc.integer({ min: -1000 * MAX_CENTS, max: 1000 * MAX_CENTS }), (cents) => {
        expect(centsOf(fromCents(cents))).toBe(cents);
      }),
    );
  });
});

describe('parseAmountText', () => {
  it.each([
    ['$5.00', 500],
    ['1,234.56', 123456],
    [' 7.5 ', 750],
    ['$ 1 234 567.89', 123456789],
    ['999,999,999.99', MAX_CENTS],
    ['12.', 1200],
    ['.5', 50],
    ['0', 0],
  ])('%j → %d cents', (text, cents) => {
    expect(parseAmountText(text)).toBe(cents);
  });

  it.each([
    ['12,50'],
    ['1,23'],
    ['1,234 567'],
    ['-5'],
    ['-$5.00'],
    ['1.234'],
    ['1,000,000,000'],
    ['USD 5'],
    ['$'],
    ['.'],
    [''],
    ['1e3'],
  ])('refuses %j', (text) => {
    expect(parseAmountText(text)).toBeNull();
  });

  it('reads every amount written with a dollar sign and thousands separators', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CENTS }), fc.constantFrom(',', ' '), (cents, separator) => {
        const written = formatUsd(fromCents(cents)).replace(/,/g, separator);
        expect(parseAmountText(written)).toBe(cents);
      }),
    );
  });
});

describe('formatting', () => {
  it('shortens chart-axis amounts so the largest fit', () => {
    expect(formatUsdCompact(1_200_000_000)).toBe('$1.2B');
    expect(formatUsdCompact(950_000)).toBe('$950K');
    expect(formatUsdCompact(0)).toBe('$0');
  });

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

describe('parseSignedAmountText', () => {
  it.each([
    ['1234.56', 123456],
    ['$1,234.56', 123456],
    ['-$1,234.56', -123456],
    ['$-1,234.56', -123456],
    ['(1,234.56)', -123456],
    ['1,234.56-', -123456],
    ['+12', 1200],
    ['USD 7.5', 750],
    ['7.50 USD', 750],
    ['.50', 50],
    ['  1,000,000  ', 100000000],
    ['0', 0],
    ['-0.00', 0],
    ['1000000000.00', Number.POSITIVE_INFINITY],
    ['-$1,000,000,000.00', Number.NEGATIVE_INFINITY],
  ])('%s → %d cents', (text, cents) => {
    expect(parseSignedAmountText(text)).toBe(cents);
  });

  it.each(['', 'abc', '12.345', '1,23', '12,34.00', '1.2.3', '$', '--5', '1e5', '12 34'])(
    '%j is not an amount',
    (text) => {
      expect(parseSignedAmountText(text)).toBeNull();
    },
  );
});
