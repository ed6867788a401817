import type { MessageResponse } from '@billfold/contract/primitives';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/**
 * `DELETE /ledgers/{id}/members/{userId}` with the caller's own id: they leave the ledger (409 `PERSONAL_LEDGER`
 * for their personal one, `LAST_OWNER` for its last owner).
 */
export function leaveLedger({
  ledgerId,
  userId,
}: {
  ledgerId: number;
  userId: number;
}): Promise<Outcome<MessageResponse>> {
  return attempt<MessageResponse>('DELETE', `/ledgers/${ledgerId}/members/${userId}`, { ledger: false });
}

export function useLeaveLedger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveLedger,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateLedgers(queryClient);
    },
  });
}
