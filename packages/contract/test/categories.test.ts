import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  categoryKey,
  categoryLabel,
  categoryName,
  compareCategories,
  isBuiltInCategory,
  normalizeCategory,
} from '../src/categories.ts';

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

  it("shows a built-in category in title case and a name of the user's own as written", () => {
    expect(categoryLabel('MORTGAGE_/_RENT')).toBe('Mortgage / Rent');
    expect(categoryLabel('groceries')).toBe('Groceries');
    expect(categoryLabel(' Side jobs ')).toBe('Side jobs');
  });

  it('keys names case-, spacing- and composition-insensitively, and knows the built-in ones', () => {
    expect(categoryKey('  Side   JOBS ')).toBe(categoryKey('side_jobs'));
    expect(categoryKey('Cafe\u0301')).toBe(categoryKey('café'));
    expect(isBuiltInCategory(' utilities ')).toBe(true);
    expect(isBuiltInCategory('Salary')).toBe(false);
  });

  it('stores an own name trimmed, composed, with one space between words, and refuses empty and invisible ones', () => {
    expect(categoryName.parse('  Side   jobs ')).toBe('Side jobs');
    expect(categoryName.safeParse('   ').success).toBe(false);
    expect(categoryName.safeParse('Sal\u200Bary').success).toBe(false);
    expect(categoryName.safeParse('x'.repeat(51)).success).toBe(false);
  });

  it('orders Uncategorized first, then every name alphabetically whatever its case', () => {
    expect(['salary', 'Utilities', 'Uncategorized', 'Auto Loan', 'Refunds'].sort(compareCategories)).toEqual([
      'Uncategorized',
      'Auto Loan',
      'Refunds',
      'salary',
      'Utilities',
    ]);
  });
});
