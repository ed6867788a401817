import type { ChangeRoleBody, LedgerMember } from '@billfold/contract/ledgers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/** `PATCH /ledgers/{id}/members/{userId}`: a member's new role (owners only; 409 `LAST_OWNER`). */
export function changeRole({
  ledgerId,
  userId,
  ...body
}: ChangeRoleBody & { ledgerId: number; userId: number }): Promise<Outcome<LedgerMember>> {
  return attempt<LedgerMember>('PATCH', `/ledgers/${ledgerId}/members/${userId}`, { body, ledger: false });
}

export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRole,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateLedgers(queryClient);
    },
  });
}
