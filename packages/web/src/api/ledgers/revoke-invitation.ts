import type { MessageResponse } from '@billfold/contract/primitives';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invitationsQueryKey } from './ledger-queries.ts';

/** `DELETE /ledgers/{id}/invitations/{invitationId}`: the link stops working at once. */
export function revokeInvitation({
  ledgerId,
  invitationId,
}: {
  ledgerId: number;
  invitationId: number;
}): Promise<Outcome<MessageResponse>> {
  return attempt<MessageResponse>('DELETE', `/ledgers/${ledgerId}/invitations/${invitationId}`, { ledger: false });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: (outcome, { ledgerId }) => {
      if (outcome.ok) void queryClient.invalidateQueries({ queryKey: invitationsQueryKey(ledgerId) });
    },
  });
}
