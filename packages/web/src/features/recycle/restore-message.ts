import type { RecycleType } from '@billfold/contract/recycle';
import { type Outcome, serverReason } from '../../api/outcome.ts';

/**
 * What the notice says (docs/product.md, Messages) after a Restore; a refusal carries the server's reason
 * (`Restore failed: An entity named "Acme" already exists.`).
 */
export function restoreNotice(
  type: RecycleType,
  outcome: Outcome<unknown>,
): { message: string; severity: 'success' | 'error' } {
  if (outcome.ok) return { message: `${type} restored successfully.`, severity: 'success' };
  if (outcome.code === 'NOT_FOUND') return { message: 'Item not found', severity: 'error' };
  const reason = serverReason(outcome);
  return { message: reason ? `Restore failed: ${reason}` : 'Restore failed', severity: 'error' };
}

/** An entity whose name another entity now has can come back under a new name (`PUT /bills {id, recycle:false, name}`). */
export function canRestoreUnderAnotherName(type: RecycleType, outcome: Outcome<unknown>): boolean {
  return !outcome.ok && type === 'Entity' && outcome.code === 'CONFLICT';
}

/** The name offered for such a restore: `Acme` → `Acme (2)`, `Acme (2)` → `Acme (3)`. */
export function suggestedName(name: string): string {
  const numbered = /^(.*) \((\d+)\)$/.exec(name);
  return numbered ? `${numbered[1]} (${Number(numbered[2]) + 1})` : `${name} (2)`;
}
