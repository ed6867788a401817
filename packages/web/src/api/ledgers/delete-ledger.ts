import type { DeleteLedgerBody } from '@billfold/contract/ledgers';
import type { MessageResponse } from '@billfold/contract/primitives';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/**
 * `DELETE /ledgers/{id}` with the owner's password: the ledger and all its data go (403 `LEDGER_OWNER_ONLY` for
 * others, 409 `PERSONAL_LEDGER` for the personal one, `WRONG_PASSWORD`).
 */
export function deleteLedger({ id, ...body }: DeleteLedgerBody & { id: number }): Promise<Outcome<MessageResponse>> {
  return attempt<MessageResponse>('DELETE', `/ledgers/${id}`, { body, ledger: false });
}

export function useDeleteLedger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLedger,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateLedgers(queryClient);
    },
  });
}
