import { MESSAGES } from '@billfold/contract/validation';

/** The name is required once trimmed (docs/product.md, Entity). */
export function entityNameProblem(name: string): string | null {
  return name.trim() === '' ? MESSAGES.entityNameEmpty : null;
}
