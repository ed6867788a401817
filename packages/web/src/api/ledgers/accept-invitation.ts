import type { AcceptInvitationResult } from '@billfold/contract/ledgers';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invalidateLedgers } from './ledger-queries.ts';

/**
 * `POST /invitations/{token}/accept`: the signed-in user joins the ledger with the invitation's role; the answer is
 * the ledger as they now see it (a member already: nothing changes, the link stays unused).
 */
export function acceptInvitation(token: string): Promise<Outcome<AcceptInvitationResult>> {
  return attempt<AcceptInvitationResult>('POST', `/invitations/${encodeURIComponent(token)}/accept`, { ledger: false });
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
