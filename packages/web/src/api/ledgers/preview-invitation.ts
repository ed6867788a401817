import type { InvitationPreview } from '@billfold/contract/ledgers';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `GET /invitations/{token}`: the ledger, role, inviter and expiry of a link, before accepting it. */
export function previewInvitation(token: string): Promise<Outcome<InvitationPreview>> {
  return attempt<InvitationPreview>('GET', `/invitations/${encodeURIComponent(token)}`, { ledger: false });
}

/** The preview; the query's error (code `INVITATION_INVALID`) when the link is unknown, expired, revoked or used. */
export function useInvitationPreview(token: string | null) {
  return useQuery({
    queryKey: ['invitations', token ?? ''],
    queryFn: async () => dataOf(await previewInvitation(token ?? '')),
    enabled: token !== null,
    // A link is used once: its preview is never kept for another visit.
    gcTime: 0,
  });
}
