import { parseApiTimestamp } from '@billfold/contract/dates';
import type { RecycleItem, RecycleType } from '@billfold/contract/recycle';
import { type Outcome, serverReason } from '../../api/outcome.ts';
import { countOf } from '../../lib/format.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

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

/** What the notice says after Delete Forever: the server's message, or why it failed. */
export function deleteForeverNotice(outcome: Outcome<{ message: string }>): {
  message: string;
  severity: 'success' | 'error';
} {
  if (outcome.ok) return { message: outcome.data.message, severity: 'success' };
  if (outcome.code === 'NOT_FOUND') return { message: 'Item not found', severity: 'error' };
  const reason = serverReason(outcome);
  return { message: reason ? `Delete failed: ${reason}` : 'Delete failed', severity: 'error' };
}

/** Whole days until `purgeDate` (rounded up), as the bin shows them: "14 days", "1 day", "Today". */
export function daysLeft(purgeDate: string, now: number): { days: number; label: string } {
  const ms = parseApiTimestamp(purgeDate).getTime() - now;
  const days = Math.max(0, Math.ceil(ms / DAY_MS));
  return { days, label: days === 0 ? 'Today' : countOf(days, 'day', 'days') };
}

/** What Delete Forever takes with the item, for its confirmation. */
export function deleteForeverQuestion(item: RecycleItem): string {
  const name = item.partyName ?? '';
  if (item.entityType === 'Entity')
    return `The entity ${name}, its invoices and their payments will be deleted permanently. This cannot be undone.`;
  if (item.entityType === 'Invoice')
    return `Invoice #${item.invoiceNumber} of ${name} and its payments will be deleted permanently. This cannot be undone.`;
  return `This payment of ${name}'s invoice #${item.invoiceNumber} will be deleted permanently. This cannot be undone.`;
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
