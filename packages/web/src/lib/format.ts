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
