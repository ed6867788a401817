/** The 21 entity categories; `Uncategorized` first, the rest alphabetical (the display order). */
export const CATEGORIES = [
  'Uncategorized',
  'Auto Insurance',
  'Auto Loan',
  'Auto Repairs',
  'Debt Payments',
  'Dining',
  'Donations',
  'Entertainment',
  'Financial',
  'Friends / Family',
  'Fuel',
  'Groceries',
  'Healthcare',
  'HOA / Taxes',
  'Home Services',
  'Insurance',
  'Mortgage / Rent',
  'Personal Care / Fitness',
  'Shopping',
  'Subscriptions',
  'Utilities',
] as const;

export type Category = (typeof CATEGORIES)[number];
export const DEFAULT_CATEGORY: Category = 'Uncategorized';

const byKey = new Map<string, Category>(CATEGORIES.map((c) => [categoryKey(c), c]));

/** Case, spacing and `_` versus space do not matter: `AUTO_LOAN`, ` auto loan ` and `Auto Loan` are one category. */
function categoryKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');
}

/** The canonical category for any input; anything not in the list becomes `Uncategorized`. */
export function normalizeCategory(value: unknown): Category {
  if (typeof value !== 'string') return DEFAULT_CATEGORY;
  return byKey.get(categoryKey(value)) ?? DEFAULT_CATEGORY;
}

/** Title case for display ("HOA / Taxes" keeps its acronym). */
export function categoryLabel(value: string): string {
  const known = byKey.get(categoryKey(value));
  if (known) return known;
  return value
    .toLowerCase()
    .replace(/_/g, ' ')
    .replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
