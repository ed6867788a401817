import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, categoryLabel, normalizeCategory } from '../src/categories.ts';
import { entriesQuery } from '../src/entries.ts';
import { INHERITED_KEYS, ownValue } from '../src/own-keys.ts';
import { PAYMENT_METHOD_CODES, paymentMethodLabel } from '../src/payment-methods.ts';

/**
 * The contract's lookup tables answer only for their own keys (docs/security.md, Safe lookups): any text, and above
 * all the keys every object inherits, gives a string label, a known category, or a refusal, never a function.
 */
const hostile = fc.oneof(
  fc.constantFrom(...INHERITED_KEYS),
  fc.string(),
  fc
    .tuple(fc.constantFrom(...INHERITED_KEYS), fc.constantFrom(...INHERITED_KEYS), fc.constantFrom('|', '/', ' | '))
    .map(([a, b, sep]) => `${a}${sep}${b}`),
);

describe('lookups by user text', () => {
  it('ownValue never returns what an object inherits', () => {
    const table: Record<string, number> = { a: 1 };
    for (const key of INHERITED_KEYS) expect(ownValue(table, key), key).toBeUndefined();
    expect(ownValue(table, 'a')).toBe(1);
  });

  it('a payment-method label is always text, and one of the table when the code is a method', () => {
    fc.assert(
      fc.property(hostile, (code) => {
        const label = paymentMethodLabel(code);
        expect(typeof label).toBe('string');
        expect(label).not.toMatch(/function|\[object/);
      }),
      { numRuns: 2000 },
    );
    for (const key of INHERITED_KEYS) {
      expect(paymentMethodLabel(key), key).toBe('Other - Other');
      expect(paymentMethodLabel(`${key}|${key}`), key).toBe('Other - Other');
    }
    for (const code of PAYMENT_METHOD_CODES) expect(paymentMethodLabel(code)).not.toContain('Other - Other');
  });

  it('a category is always one of the list, and its label text', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        expect(CATEGORIES).toContain(normalizeCategory(value));
        expect(typeof categoryLabel(value)).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('a sort field that is not a field is refused in words', () => {
    fc.assert(
      fc.property(hostile, (sortField) => {
        const parsed = entriesQuery.safeParse({ sortField });
        if (!parsed.success) expect(parsed.error.issues[0]?.message).not.toMatch(/function|\[object/);
        else expect(typeof parsed.data.sortField === 'string' || parsed.data.sortField === undefined).toBe(true);
      }),
      { numRuns: 2000 },
    );
    for (const key of INHERITED_KEYS) expect(entriesQuery.safeParse({ sortField: key }).success, key).toBe(false);
  });
});
