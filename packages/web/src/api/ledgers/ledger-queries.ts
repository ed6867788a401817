import type { QueryClient } from '@tanstack/react-query';

/**
 * The cache keys of the ledger calls. They are about the user (which ledgers, who is in them), not one ledger's
 * data, so switching ledgers keeps them (docs/decisions/0303-web-ledgers.md).
 */
export const ledgersQueryKey = ['ledgers', 'list'] as const;
export const membersQueryKey = (ledgerId: number) => ['ledgers', ledgerId, 'members'] as const;
export const invitationsQueryKey = (ledgerId: number) => ['ledgers', ledgerId, 'invitations'] as const;

/** After a ledger, member or invitation write: the list (names, roles, counts) and every ledger's members. */
export function invalidateLedgers(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: ['ledgers'] });
}
