import type { ApiToken, TokenScope } from '@billfold/contract/tokens';
import { formatTimestamp } from '../../lib/dates.ts';

/** The scope as the Account page says it. */
export const SCOPE_LABELS: Record<TokenScope, string> = { read: 'Read only', 'read-write': 'Read and write' };

/**
 * The line under a token's name: its scope, the one ledger it works in (`ledgerName`, when it is bound to one), last
 * use and expiry (docs/product.md, Account (/account)).
 */
export function tokenDetails(token: ApiToken, now = Date.now(), ledgerName?: string): string {
  const used = token.lastUsedAt ? `Last used ${formatTimestamp(token.lastUsedAt)}` : 'Never used';
  const parts = [SCOPE_LABELS[token.scope]];
  if (token.ledgerId !== null) parts.push(`Only in “${ledgerName ?? 'a ledger you no longer have'}”`);
  parts.push(used);
  if (token.expiresAt) {
    const expired = Date.parse(`${token.expiresAt}Z`) <= now;
    parts.push(`${expired ? 'Expired' : 'Expires'} ${formatTimestamp(token.expiresAt)}`);
  }
  return parts.join(' · ');
}

/** The validation message of the New Token form's name, or null. */
export function tokenNameProblem(name: string): string | null {
  if (name.trim() === '') return 'Name is required';
  if (name.trim().length > 100) return 'Name must be at most 100 characters';
  return null;
}

/** A `curl` line that tries the token, shown with it. */
export function curlExample(token: string, origin: string): string {
  return `curl -H "Authorization: Bearer ${token}" ${origin}/api/v1/entries/due-summary`;
}
