import type { CategoryItem, CategoryList } from '@billfold/contract/categories';
import { CATEGORIES } from '@billfold/contract/categories';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const categoriesQueryKey = ['categories', 'list'] as const;

/** `GET /categories`: the 21 built-in categories and the user's own (retired ones too), Uncategorized first. */
export function listCategories(): Promise<Outcome<CategoryList>> {
  return attempt<CategoryList>('GET', '/categories');
}

/** What the pickers offer until the list has loaded, or when it failed: the built-in ones. */
export const BUILT_IN_ITEMS: readonly CategoryItem[] = CATEGORIES.map((name) => ({
  id: null,
  name,
  builtIn: true,
  flow: null,
  retired: false,
  entities: 0,
}));

/**
 * Every category the user can name. A domain query: a write to entities (or to the categories, whose renames reach
 * entities and invoices) marks it stale, so the entity counts follow.
 */
export function useCategories() {
  return useQuery({
    queryKey: categoriesQueryKey,
    queryFn: async () => dataOf(await listCategories()).categories,
  });
}
