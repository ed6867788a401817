/**
 * Categories: the spec's 21 built-in ones, which every user has, and the user's own (`/categories`,
 * docs/decisions/0105-categories-of-your-own.md). On the wire a category is its name, built-in or not.
 */
import { z } from 'zod';
import { nameText } from './primitives.ts';

/** The 21 built-in entity categories; `Uncategorized` first, the rest alphabetical (the display order). */
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

/**
 * Case, spacing and `_` versus space do not matter: `AUTO_LOAN`, ` auto loan ` and `Auto Loan` are one category.
 * The same key makes a user's own category names unique, among themselves and against the built-in ones.
 */
export function categoryKey(value: string): string {
  return value
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');
}

/** Whether the name is one of the 21 built-in categories, in any spelling. */
export function isBuiltInCategory(value: string): boolean {
  return byKey.has(categoryKey(value));
}

/** The canonical category for any input; anything not in the list becomes `Uncategorized`. */
export function normalizeCategory(value: unknown): Category {
  if (typeof value !== 'string') return DEFAULT_CATEGORY;
  return byKey.get(categoryKey(value)) ?? DEFAULT_CATEGORY;
}

/**
 * The name to show: a built-in category in any spelling (`MORTGAGE_/_RENT`, `groceries`) in its title-case form
 * ("HOA / Taxes" keeps its acronym); anything else is a name of the user's own and is shown as they wrote it.
 */
export function categoryLabel(value: string): string {
  return byKey.get(categoryKey(value)) ?? value.trim();
}

/** A category of the user's own is for income or for expenses: the flow a new invoice of its entities starts with. */
export const CATEGORY_FLOWS = ['income', 'expense'] as const;
export type CategoryFlow = (typeof CATEGORY_FLOWS)[number];

/** How many categories of their own a user may have, retired ones included (the ledger index keeps 256 per user). */
export const MAX_OWN_CATEGORIES = 200;
export const MAX_CATEGORY_NAME = 50;

/** A name as stored and shown: the name rules of docs/decisions/0102-text-characters.md, runs of spaces made one. */
export const categoryName = nameText(MAX_CATEGORY_NAME)
  .transform((s) => s.replace(/ {2,}/g, ' '))
  .pipe(z.string().min(1, 'Category name cannot be empty.'));

/** One category as `GET /categories` lists it: a built-in one has no id, no flow, and is never retired. */
export const categoryItem = z.object({
  id: z.number().int().nullable(),
  name: z.string(),
  builtIn: z.boolean(),
  flow: z.enum(CATEGORY_FLOWS).nullable(),
  retired: z.boolean(),
  /** Live entities (archived ones included) that have it. */
  entities: z.number().int(),
});
export type CategoryItem = z.infer<typeof categoryItem>;
export const categoryListResponse = z.object({ categories: z.array(categoryItem) });
export type CategoryList = z.infer<typeof categoryListResponse>;

export const createCategoryBody = z.object({
  name: categoryName,
  flow: z.enum(CATEGORY_FLOWS).optional(),
});
export const updateCategoryBody = z
  .object({
    name: categoryName.optional(),
    flow: z.enum(CATEGORY_FLOWS).optional(),
    retired: z.boolean().optional(),
  })
  .refine((b) => b.name !== undefined || b.flow !== undefined || b.retired !== undefined, {
    message: 'Give at least one of name, flow and retired.',
  });
export type CreateCategoryBody = z.input<typeof createCategoryBody>;
export type UpdateCategoryBody = z.input<typeof updateCategoryBody>;
export type NewCategory = z.output<typeof createCategoryBody>;
export type CategoryChange = z.output<typeof updateCategoryBody>;

/**
 * The display order of every list and picker: `Uncategorized` first, then every other name alphabetically
 * (built-in and own together, case and accents aside).
 */
export function compareCategories(a: string, b: string): number {
  if (a === DEFAULT_CATEGORY || b === DEFAULT_CATEGORY) return a === b ? 0 : a === DEFAULT_CATEGORY ? -1 : 1;
  return a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
}
