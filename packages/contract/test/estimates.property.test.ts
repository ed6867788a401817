import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanCents } from '../src/money.ts';
import { type AmountRule, AVERAGE_OF, amountsNeeded, estimateCents, isEstimating } from '../src/schedules.ts';

// The estimate rules of docs/decisions/0212-estimated-amounts.md, against an oracle in BigInt arithmetic.
const cents = fc.integer({ min: 1, max: 99_999_999_999 });
const recent = fc.array(cents, { maxLength: 30 });
const rule = fc.record({
  mode: fc.constantFrom('fixed' as const, 'last' as const, 'average' as const),
  averageOf: fc.integer({ min: AVERAGE_OF.min, max: AVERAGE_OF.max }),
  amountCents: cents,
});

/** The mean rounded half up, by comparing twice the remainder with the count. */
function oracleMean(values: number[]): number {
  const sum = values.reduce((s, v) => s + BigInt(v), 0n);
  const n = BigInt(values.length);
  const q = sum / n;
  return Number(2n * (sum - q * n) >= n ? q + 1n : q);
}

describe('a schedule estimate', () => {
  it('fixed is the amount whatever came before', () => {
    fc.assert(
      fc.property(cents, recent, (amountCents, history) => {
        expect(estimateCents({ mode: 'fixed', averageOf: null, amountCents }, history)).toBe(amountCents);
      }),
    );
  });

  it('with no invoice to go by, every mode is the amount', () => {
    fc.assert(
      fc.property(rule, (r) => {
        expect(estimateCents(r, [])).toBe(r.amountCents);
      }),
    );
  });

  it('same as last is the newest amount', () => {
    fc.assert(
      fc.property(cents, fc.array(cents, { minLength: 1 }), (amountCents, history) => {
        expect(estimateCents({ mode: 'last', averageOf: null, amountCents }, history)).toBe(history[0]);
      }),
    );
  });

  it('average of the last N is the exact mean of the newest N (or all there are), rounded half up', () => {
    fc.assert(
      fc.property(rule, fc.array(cents, { minLength: 1, maxLength: 30 }), (r, history) => {
        const averaging: AmountRule = { ...r, mode: 'average' };
        const used = history.slice(0, r.averageOf);
        const estimate = estimateCents(averaging, history);
        expect(estimate).toBe(oracleMean(used));
        expect(estimate).toBeGreaterThanOrEqual(Math.min(...used));
        expect(estimate).toBeLessThanOrEqual(Math.max(...used));
        // What lies beyond the newest N changes nothing.
        if (used.length === r.averageOf) expect(estimateCents(averaging, [...used, ...history])).toBe(estimate);
      }),
    );
  });

  it('rounds a half cent up, as meanCents does', () => {
    const average: AmountRule = { mode: 'average', averageOf: 2, amountCents: 1 };
    expect(estimateCents(average, [12_000, 9_001])).toBe(10_501);
    expect(estimateCents(average, [12_000, 9_001])).toBe(meanCents(21_001, 2));
    expect(estimateCents({ ...average, averageOf: 3 }, [1, 1, 2])).toBe(1);
    expect(estimateCents({ ...average, averageOf: 3 }, [1, 2, 2])).toBe(2);
  });

  it('reads as many invoices as its mode needs, and only the variable modes mark their invoices', () => {
    expect(amountsNeeded({ mode: 'fixed', averageOf: null, amountCents: 1 })).toBe(0);
    expect(amountsNeeded({ mode: 'last', averageOf: null, amountCents: 1 })).toBe(1);
    expect(amountsNeeded({ mode: 'average', averageOf: 7, amountCents: 1 })).toBe(7);
    expect([isEstimating('fixed'), isEstimating('last'), isEstimating('average')]).toEqual([false, true, true]);
  });
});
