import type { Ledger, RenameLedgerBody } from '@billfold/contract/ledgers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/** `PATCH /ledgers/{id}`: a new name (owners only: 403 `LEDGER_OWNER_ONLY`). */
export function renameLedger({ id, ...body }: RenameLedgerBody & { id: number }): Promise<Outcome<Ledger>> {
  return attempt<Ledger>('PATCH', `/ledgers/${id}`, { body, ledger: false });
}

export function useRenameLedger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameLedger,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateLedgers(queryClient);
    },
  });
}
