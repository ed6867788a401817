import type { MessageResponse } from '@billfold/contract/primitives';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/**
 * `DELETE /ledgers/{id}/members/{userId}`: the member loses access at once. Owners remove anyone; any member
 * removes themselves, which is leaving (409 `PERSONAL_LEDGER` for one's personal ledger, `LAST_OWNER` for its last
 * owner).
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
