import type { CreateLedgerBody, Ledger } from '@billfold/contract/ledgers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/** `POST /ledgers`: a new ledger, the caller its owner. */
export function createLedger(body: CreateLedgerBody): Promise<Outcome<Ledger>> {
  return attempt<Ledger>('POST', '/ledgers', { body, ledger: false });
}

export function useCreateLedger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLedger,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateLedgers(queryClient);
    },
  });
}
