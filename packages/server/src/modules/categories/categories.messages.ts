import { MAX_OWN_CATEGORIES } from '@billfold/contract/categories';

export const CATEGORY_MESSAGES = {
  notFound: 'Category not found.',
  tooMany: `You already have ${MAX_OWN_CATEGORIES} categories of your own (retired ones count). Rename or restore one instead.`,
} as const;

/** The name is taken by a built-in category or by another of the ledger's own (retired ones too). */
export function categoryNameTaken(name: string, holder: 'built-in' | 'active' | 'retired'): string {
  if (holder === 'built-in') return `"${name}" is a built-in category.`;
  if (holder === 'retired') return `A retired category named "${name}" already exists: restore it instead.`;
  return `A category named "${name}" already exists.`;
}
