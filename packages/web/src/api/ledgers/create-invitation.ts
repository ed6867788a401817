import type { CreateInvitationBody, Invitation } from '@billfold/contract/ledgers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { invitationsQueryKey } from './ledger-queries.ts';

/** `POST /ledgers/{id}/invitations`: a single-use link for 7 days; the answer is the only one carrying `link`. */
export function createInvitation({
  ledgerId,
  ...body
}: CreateInvitationBody & { ledgerId: number }): Promise<Outcome<Invitation>> {
  return attempt<Invitation>('POST', `/ledgers/${ledgerId}/invitations`, { body, ledger: false });
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    onSuccess: (outcome, { ledgerId }) => {
      if (outcome.ok) void queryClient.invalidateQueries({ queryKey: invitationsQueryKey(ledgerId) });
    },
  });
}
