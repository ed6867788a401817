import type { CategoryItem, UpdateCategoryBody } from '@billfold/contract/categories';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `PATCH /categories/{id}`: rename (its entities and invoices follow), change the flow, retire or restore. */
export function updateCategory({ id, ...body }: UpdateCategoryBody & { id: number }): Promise<Outcome<CategoryItem>> {
  return attempt<CategoryItem>('PATCH', `/categories/${id}`, { body });
}

/** A rename changes what every list shows, so every domain query is marked stale. */
export function useUpdateCategory() {
  return useDomainWrite(updateCategory);
}
