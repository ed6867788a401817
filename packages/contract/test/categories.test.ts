import { describe, expect, it } from 'vitest';
import { CATEGORIES, categoryLabel, normalizeCategory } from '../src/categories.ts';

describe('categories', () => {
  it('lists 21 categories, Uncategorized first then alphabetical', () => {
    expect(CATEGORIES).toHaveLength(21);
    expect(CATEGORIES[0]).toBe('Uncategorized');
    const rest = CATEGORIES.slice(1);
    expect([...rest].sort((a, b) => a.localeCompare(b))).toEqual(rest);
  });

  it('normalises case, spacing and underscores; unknown becomes Uncategorized', () => {
    expect(normalizeCategory('auto loan')).toBe('Auto Loan');
    expect(normalizeCategory('AUTO_LOAN')).toBe('Auto Loan');
    expect(normalizeCategory('  hoa / taxes ')).toBe('HOA / Taxes');
    expect(normalizeCategory('Pets')).toBe('Uncategorized');
    expect(normalizeCategory(undefined)).toBe('Uncategorized');
    expect(normalizeCategory(42)).toBe('Uncategorized');
  });

  it('title-cases for display', () => {
    expect(categoryLabel('MORTGAGE_/_RENT')).toBe('Mortgage / Rent');
    expect(categoryLabel('groceries')).toBe('Groceries');
    expect(categoryLabel('some thing')).toBe('Some Thing');
  });
});
