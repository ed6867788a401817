import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/** `POST /ledgers/{id}/leave`: the caller leaves (409 `PERSONAL_LEDGER`, or `LAST_OWNER` for its last owner). */
export function leaveLedger(ledgerId: number): Promise<Outcome<void>> {
  return attempt<void>('POST', `/ledgers/${ledgerId}/leave`, { ledger: false });
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
