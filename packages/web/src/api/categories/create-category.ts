import type { CategoryItem, CreateCategoryBody } from '@billfold/contract/categories';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /categories` → the new category (409 when the name is taken or at the limit). */
export function createCategory(body: CreateCategoryBody): Promise<Outcome<CategoryItem>> {
  return attempt<CategoryItem>('POST', '/categories', { body });
}

export function useCreateCategory() {
  return useDomainWrite(createCategory);
}
