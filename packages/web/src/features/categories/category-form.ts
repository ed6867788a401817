import { categoryName } from '@billfold/contract/categories';

/** What the name box says before anything is sent: the contract's own rules and message, or null. */
export function categoryNameProblem(name: string): string | null {
  const parsed = categoryName.safeParse(name);
  if (parsed.success) return null;
  const message = parsed.error.issues[0]?.message ?? 'Category name is not valid.';
  return /^[A-Z]/.test(message) ? message : `Name ${message}.`;
}
