import type { RecycleType } from '@billfold/contract/schemas';
import type { Outcome } from '../../api/outcome.ts';

/** Spec §8 "Recycle bin": what the notice says after a Restore. */
export function restoreNotice(
  type: RecycleType,
  outcome: Outcome<unknown>,
): { message: string; severity: 'success' | 'error' } {
  if (outcome.ok) return { message: `${type} restored successfully.`, severity: 'success' };
  if (outcome.status === 404) return { message: 'Item not found', severity: 'error' };
  return { message: 'Restore failed', severity: 'error' };
}
