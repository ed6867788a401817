import type { Ledger } from '@billfold/contract/ledgers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/** `POST /invitations/{token}/accept`: the signed-in user joins the ledger with the invitation's role. */
export function acceptInvitation(token: string): Promise<Outcome<Ledger>> {
  return attempt<Ledger>('POST', `/invitations/${encodeURIComponent(token)}/accept`, { ledger: false });
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateLedgers(queryClient);
    },
  });
}
