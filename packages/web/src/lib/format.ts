import { formatUsd } from '@billfold/contract/money';
import type { User } from '@billfold/contract/users';

// One formatter per thing, shared with the server: money (en-US numbers, USD) is `formatAmount`/`formatUsd` in
// '@billfold/contract/money', categories are `categoryLabel` in '@billfold/contract/categories', payment
// methods are `paymentMethodLabel` in '@billfold/contract/payment-methods'. Only web-only labels live here.

const ROLE_LABELS: Record<User['roles'], string> = { ROLE_ADMIN: 'Admin', ROLE_USER: 'User' };

/** `ROLE_ADMIN` → `Admin`, `ROLE_USER` → `User`. */
export function roleLabel(role: string): string {
  return ROLE_LABELS[role as User['roles']] ?? role;
}

/** `1 invoice`, `1,200 invoices`: a count with its noun. */
export function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "$1,234.00 to pay", "$50.00 to collect": each side of a balance that has something owed, paying first. */
export function owedParts(sums: { toPay: number; toCollect: number }): string[] {
  const parts: string[] = [];
  if (sums.toPay > 0) parts.push(`${formatUsd(sums.toPay)} to pay`);
  if (sums.toCollect > 0) parts.push(`${formatUsd(sums.toCollect)} to collect`);
  return parts;
}
