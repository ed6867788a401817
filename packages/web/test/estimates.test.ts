import { describe, expect, it } from 'vitest';
import { estimateDifference } from '../src/components/estimates.tsx';

describe('estimate against actual', () => {
  it('says the difference in exact cents, either way, or that it was as estimated', () => {
    expect(estimateDifference({ amount: 130, estimate: 105.01 })).toBe('24.99 more than estimated');
    expect(estimateDifference({ amount: 0.1, estimate: 0.3 })).toBe('0.20 less than estimated');
    expect(estimateDifference({ amount: 105.01, estimate: 105.01 })).toBe('As estimated');
    expect(estimateDifference({ amount: 999_999_999.99, estimate: 0.01 })).toBe('999,999,999.98 more than estimated');
    expect(estimateDifference({ amount: 12, estimate: null })).toBeNull();
  });
});
