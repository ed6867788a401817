import type { InvitationList } from '@billfold/contract/ledgers';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';
import { invitationsQueryKey } from './ledger-queries.ts';

/** `GET /ledgers/{id}/invitations`: the pending invitations (owners only). */
export function listInvitations(ledgerId: number): Promise<Outcome<InvitationList>> {
  return attempt<InvitationList>('GET', `/ledgers/${ledgerId}/invitations`, { ledger: false });
}

export function useInvitations(ledgerId: number, options: { enabled: boolean }) {
  return useQuery({
    queryKey: invitationsQueryKey(ledgerId),
    queryFn: async () => dataOf(await listInvitations(ledgerId)).invitations,
    enabled: options.enabled,
  });
}
