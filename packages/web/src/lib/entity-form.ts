import { MESSAGES } from '@billfold/contract/validation';

/** Spec §5: the name is required once trimmed. */
export function entityNameProblem(name: string): string | null {
  return name.trim() === '' ? MESSAGES.entityNameEmpty : null;
}
