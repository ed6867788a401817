import type { MessageResponse } from '@billfold/contract/primitives';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/**
 * `DELETE /ledgers/{id}/members/{userId}`: the member loses access at once (owners only; 409 `LAST_OWNER` when
 * they are the last owner).
 */
export function removeMember({
  ledgerId,
  userId,
}: {
  ledgerId: number;
  userId: number;
}): Promise<Outcome<MessageResponse>> {
  return attempt<MessageResponse>('DELETE', `/ledgers/${ledgerId}/members/${userId}`, { ledger: false });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateLedgers(queryClient);
    },
  });
}
