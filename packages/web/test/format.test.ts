import { describe, expect, it } from 'vitest';
import { openBalanceLines } from '../src/features/entities/entity-actions.tsx';
import { countOf, owedParts } from '../src/lib/format.ts';

describe('web labels (lib/format.ts)', () => {
  it('counts with the noun that fits the number', () => {
    expect(countOf(0, 'invoice', 'invoices')).toBe('0 invoices');
    expect(countOf(1, 'invoice', 'invoices')).toBe('1 invoice');
    expect(countOf(2, 'day', 'days')).toBe('2 days');
    expect(countOf(1200, 'entity', 'entities')).toBe('1,200 entities');
  });

  // Amounts as the API sends them (dollars; contract/money.ts).
  it('names each side of a balance that has something owed, paying first', () => {
    expect(owedParts({ toPay: 0, toCollect: 0 })).toEqual([]);
    expect(owedParts({ toPay: 1234.5, toCollect: 0 })).toEqual(['$1,234.50 to pay']);
    expect(owedParts({ toPay: 0, toCollect: 0.05 })).toEqual(['$0.05 to collect']);
    expect(owedParts({ toPay: 1, toCollect: 50 })).toEqual(['$1.00 to pay', '$50.00 to collect']);
  });

  it("gives an entity's open balance as those lines, or Nothing open", () => {
    expect(openBalanceLines({ balance: { toPay: 0, toCollect: 0 } })).toEqual(['Nothing open']);
    expect(openBalanceLines({ balance: { toPay: 2.5, toCollect: 1 } })).toEqual(['$2.50 to pay', '$1.00 to collect']);
  });
});
