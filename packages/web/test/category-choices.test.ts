import type { CategoryItem } from '@billfold/contract/categories';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ITEMS } from '../src/api/categories/list-categories.ts';
import { pickerChoices } from '../src/components/CategorySelect.tsx';
import { categoryNameProblem } from '../src/features/categories/category-form.ts';

const own = (name: string, retired = false, flow: 'income' | 'expense' = 'income'): CategoryItem => ({
  id: name.length,
  name,
  builtIn: false,
  flow,
  retired,
  entities: 0,
});
const items = [...BUILT_IN_ITEMS.slice(0, 3), own('Salary'), own('Old hobby', true), ...BUILT_IN_ITEMS.slice(3)];

describe('the category picker (docs/decisions/0105-categories-of-your-own.md)', () => {
  it('offers every category but the retired ones, in the list order', () => {
    const names = pickerChoices(items, 'Uncategorized').map((c) => c.name);
    expect(names).toContain('Salary');
    expect(names).not.toContain('Old hobby');
    expect(names).toHaveLength(22);
    expect(names[0]).toBe('Uncategorized');
  });

  it('keeps the current value when it is retired, or one the list does not know (yet)', () => {
    expect(pickerChoices(items, 'Old hobby').find((c) => c.name === 'Old hobby')).toMatchObject({ retired: true });
    expect(pickerChoices(BUILT_IN_ITEMS, 'Salary').at(-1)).toMatchObject({ name: 'Salary', builtIn: false });
  });
});

describe('the category name box', () => {
  it('says what the server would refuse, before sending', () => {
    expect(categoryNameProblem('Salary')).toBeNull();
    expect(categoryNameProblem('   ')).toBe('Category name cannot be empty.');
    expect(categoryNameProblem('x'.repeat(51))).toBe('Name must be at most 50 characters.');
    expect(categoryNameProblem('Sal\u200Bary')).toMatch(/U\+200B/);
  });
});
